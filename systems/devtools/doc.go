// Package devtools holds what every game has while it is made and tested,
// presentation only (a recording replays the same with them open or
// closed), costing nothing while hidden: the [Overlay] (F3: frames and
// ticks per second, alpha, dropped time, per-system timings with their
// p99), the [Inspector] (F4: pick an entity by clicking it or with Tab,
// and see its components live, outlined on screen) and the dev [Keys] (F3,
// F4, pause, single step, a step back, time scale, fullscreen,
// screenshots). A stage (package systems/stage) comes with all three.
package devtools
