//go:build !(amd64.v3 || arm64 || riscv64 || ppc64 || ppc64le || s390x || loong64)

package cp_test

// compilerFuses says whether the compiler fuses float products and sums
// into multiply-adds for this build's CPU.
const compilerFuses = false
