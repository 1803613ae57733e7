// Copyright 2009 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// From src/math/bits.go of Go 1.26.8.

package portable

// The layout of a float64, from Go's src/math/bits.go.
const (
	mask  = 0x7FF
	shift = 64 - 11 - 1
	bias  = 1023
)
