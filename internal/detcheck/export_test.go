package detcheck

// DetmathFuncs are the detmath functions that findings suggest.
var DetmathFuncs = detmathFuncs
