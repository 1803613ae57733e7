//go:build amd64 && !purego && !amd64.v3

// The vector way of making sprites' quads (quadsAVX2, see vectorQuads in
// render.go) and the prefetch of the components build takes next. Every
// operation on a number is one the scalar way does too, in its order and
// its precision: multiplications and additions apart (no fused
// multiply-add), roundings to float32 where it converts, so that each
// lane's results are its bits.

#include "textflag.h"

// Four copies of a float64's bits, or eight of a float32's: a constant
// every lane of a Y register reads.
#define LANES64(name, bits) \
	DATA name<>+0(SB)/8, $bits \
	DATA name<>+8(SB)/8, $bits \
	DATA name<>+16(SB)/8, $bits \
	DATA name<>+24(SB)/8, $bits \
	GLOBL name<>(SB), RODATA|NOPTR, $32

#define LANES32(name, bits) \
	DATA name<>+0(SB)/4, $bits \
	DATA name<>+4(SB)/4, $bits \
	DATA name<>+8(SB)/4, $bits \
	DATA name<>+12(SB)/4, $bits \
	DATA name<>+16(SB)/4, $bits \
	DATA name<>+20(SB)/4, $bits \
	DATA name<>+24(SB)/4, $bits \
	DATA name<>+28(SB)/4, $bits \
	GLOBL name<>(SB), RODATA|NOPTR, $32

LANES64(abs64, 0x7fffffffffffffff)
LANES64(sign64, 0x8000000000000000)
LANES64(fouroverpi, 0x3ff45f306dc9c883)
LANES64(pi4a, 0x3fe921fb40000000)
LANES64(pi4b, 0x3e64442d00000000)
LANES64(pi4c, 0x3ce8469898cc5170)
LANES64(one64, 0x3ff0000000000000)
LANES64(half64, 0x3fe0000000000000)
LANES64(sin0, 0x3de5d8fd1fd19ccd)
LANES64(sin1, 0xbe5ae5e5a9291f5d)
LANES64(sin2, 0x3ec71de3567d48a1)
LANES64(sin3, 0xbf2a01a019bfdf03)
LANES64(sin4, 0x3f8111111110f7d0)
LANES64(sin5, 0xbfc5555555555548)
LANES64(cos0, 0xbda8fa49a0861a9b)
LANES64(cos1, 0x3e21ee9d7b4e3f05)
LANES64(cos2, 0xbe927e4f7eac4bc6)
LANES64(cos3, 0x3efa01a019c844f5)
LANES64(cos4, 0xbf56c16c16c14f91)
LANES64(cos5, 0x3fa555555555554b)
LANES32(ones32, 0x00000001)
LANES32(one32, 0x3f800000)
LANES32(abs32, 0x7fffffff)
LANES32(limit32, 0x4b000000)
LANES32(frac3, 0x3e400000)
LANES32(frac8, 0x3f000000)
LANES32(frac13, 0x3f500000)
LANES32(step5, 0x3ea00000)
LANES32(step6, 0x3ec00000)

// srcOrder spreads a sprite's source rectangle (x0, y0, x1, y1) over its
// four vertices, two floats each: x0 y0, x1 y0, x0 y1, x1 y1.
DATA srcOrder<>+0(SB)/4, $0
DATA srcOrder<>+4(SB)/4, $1
DATA srcOrder<>+8(SB)/4, $2
DATA srcOrder<>+12(SB)/4, $1
DATA srcOrder<>+16(SB)/4, $0
DATA srcOrder<>+20(SB)/4, $3
DATA srcOrder<>+24(SB)/4, $2
DATA srcOrder<>+28(SB)/4, $3
GLOBL srcOrder<>(SB), RODATA|NOPTR, $32

// The offsets of vectorIn's fields (quads_amd64.go holds them to its
// layout).
#define ANGLE 0
#define POSX 512
#define POSY 1024
#define SCALEX 1536
#define SCALEY 2048
#define ORIGINX 2560
#define ORIGINY 3072
#define WIDTH 3584
#define HEIGHT 3840
#define SIN 4096
#define COS 4608
#define GA 5120
#define GB 5376
#define GC 5632
#define GD 5888
#define GTX 6144
#define GTY 6400
#define SRC 6656
#define COLOR 7680
#define CLIP 8704

// VERTICES writes a sprite's four vertices at off(DI): its corners, from
// row R (x0 y0 x1 y1 x2 y2 x3 y3); its source rectangle, the sixteen
// bytes at src(SI), spread by srcOrder in Y14; its colour, the sixteen
// bytes at color(SI). Y11, Y12 and Y13 are scratch.
#define VERTICES(R, src, color, off) \
	VPERMPS src(SI), Y14, Y11 \
	VBROADCASTF128 color(SI), Y12 \
	VUNPCKLPD Y11, R, Y13 \
	VUNPCKHPD Y11, R, R \
	VPERM2F128 $0x20, Y12, Y13, Y11 \
	VMOVUPS Y11, off+0(DI) \
	VPERM2F128 $0x21, Y12, Y13, Y11 \
	VMOVUPS Y11, off+96(DI) \
	VPERM2F128 $0x20, Y12, R, Y11 \
	VMOVUPS Y11, off+48(DI) \
	VPERM2F128 $0x21, Y12, R, Y11 \
	VMOVUPS Y11, off+144(DI)

// SNAP moves the eight float32s of R as snap does, with F, T and M as
// scratch, and ANDs into V a mask of the lanes snap's way here is exact
// for (|x| < 2^23, not NaN): floor, the fraction, and the step its
// sixteenths fall in.
#define SNAP(R, F, T, M, V) \
	VANDPS abs32<>(SB), R, T \
	VCMPPS $1, limit32<>(SB), T, T \
	VANDPS T, V, V \
	VROUNDPS $1, R, F \
	VSUBPS F, R, R \
	VCMPPS $13, frac3<>(SB), R, T \
	VANDPS step5<>(SB), T, T \
	VCMPPS $13, frac8<>(SB), R, M \
	VANDPS step6<>(SB), M, M \
	VADDPS M, T, T \
	VCMPPS $13, frac13<>(SB), R, M \
	VANDPS step5<>(SB), M, M \
	VADDPS M, T, T \
	VADDPS T, F, R

// func quadsAVX2(in *vectorIn, view *[6][4]float64, n int, out *[chunk][4]ebiten.Vertex) (bad, culled uint64)
//
// It goes over the sprites three times, four at a time: their sines and
// cosines, their transforms, their corners. Each loop's work for four
// sprites is short enough that the CPU overlaps it with the next four's.
TEXT ·quadsAVX2(SB), NOSPLIT, $0-48
	MOVQ in+0(FP), SI
	MOVQ view+8(FP), DX
	MOVQ n+16(FP), R10
	MOVQ out+24(FP), DI

	// The sine and cosine of each angle, as sines computes them.
	XORQ BX, BX

sines:
	CMPQ BX, R10
	JGE  transforms
	VMOVUPD ANGLE(SI)(BX*8), Y0
	VPTEST  Y0, Y0
	JNZ     turned

	// Four upright sprites (angles +0): sines 0, cosines 1.
	VMOVUPD Y0, SIN(SI)(BX*8)
	VMOVUPD one64<>(SB), Y1
	VMOVUPD Y1, COS(SI)(BX*8)
	ADDQ $4, BX
	JMP  sines

turned:
	VANDPD  abs64<>(SB), Y0, Y1
	VMULPD  fouroverpi<>(SB), Y1, Y2
	VCVTTPD2DQY Y2, X2
	VPAND   ones32<>(SB), X2, X3
	VPADDD  X3, X2, X2
	VCVTDQ2PD X2, Y3
	VMULPD  pi4a<>(SB), Y3, Y4
	VSUBPD  Y4, Y1, Y1
	VMULPD  pi4b<>(SB), Y3, Y4
	VSUBPD  Y4, Y1, Y1
	VMULPD  pi4c<>(SB), Y3, Y4
	VSUBPD  Y4, Y1, Y1

	VMULPD  Y1, Y1, Y5
	VMULPD  cos0<>(SB), Y5, Y6
	VMULPD  sin0<>(SB), Y5, Y7
	VADDPD  cos1<>(SB), Y6, Y6
	VMULPD  Y5, Y6, Y6
	VADDPD  sin1<>(SB), Y7, Y7
	VMULPD  Y5, Y7, Y7
	VADDPD  cos2<>(SB), Y6, Y6
	VMULPD  Y5, Y6, Y6
	VADDPD  sin2<>(SB), Y7, Y7
	VMULPD  Y5, Y7, Y7
	VADDPD  cos3<>(SB), Y6, Y6
	VMULPD  Y5, Y6, Y6
	VADDPD  sin3<>(SB), Y7, Y7
	VMULPD  Y5, Y7, Y7
	VADDPD  cos4<>(SB), Y6, Y6
	VMULPD  Y5, Y6, Y6
	VADDPD  sin4<>(SB), Y7, Y7
	VMULPD  Y5, Y7, Y7

	VADDPD  cos5<>(SB), Y6, Y6
	VMULPD  Y5, Y5, Y8
	VMULPD  Y8, Y6, Y6
	VMULPD  half64<>(SB), Y5, Y8
	VMOVUPD one64<>(SB), Y9
	VSUBPD  Y8, Y9, Y9
	VADDPD  Y6, Y9, Y6

	VADDPD  sin5<>(SB), Y7, Y7
	VMULPD  Y5, Y1, Y8
	VMULPD  Y7, Y8, Y7
	VADDPD  Y7, Y1, Y7

	// The octant: bit 1 of k swaps sine and cosine, bit 2 negates both,
	// bit 1 the cosine too, and a negative angle the sine.
	VPSLLD    $30, X2, X8
	VPMOVSXDQ X8, Y8
	VPSLLD    $29, X2, X9
	VPMOVSXDQ X9, Y9
	VBLENDVPD Y8, Y6, Y7, Y10
	VBLENDVPD Y8, Y7, Y6, Y11
	VANDPD    sign64<>(SB), Y9, Y12
	VANDPD    sign64<>(SB), Y0, Y13
	VXORPD    Y13, Y12, Y13
	VXORPD    Y13, Y10, Y10
	VXORPD    Y8, Y9, Y8
	VANDPD    sign64<>(SB), Y8, Y8
	VXORPD    Y8, Y11, Y11
	VMOVUPD   Y10, SIN(SI)(BX*8)
	VMOVUPD   Y11, COS(SI)(BX*8)
	ADDQ $4, BX
	JMP  sines

transforms:
	// Each sprite's transform, as quads composes it: a, b, c, d (the
	// rotation and scale) and tx, ty, through the view, rounded to float32
	// as DrawImage rounds its GeoM.
	XORQ BX, BX

transform:
	CMPQ BX, R10
	JGE  corners
	VMOVUPD SIN(SI)(BX*8), Y10
	VMOVUPD COS(SI)(BX*8), Y11
	VMOVUPD SCALEX(SI)(BX*8), Y0
	VMOVUPD SCALEY(SI)(BX*8), Y1
	VMULPD  Y0, Y11, Y2
	VMULPD  Y1, Y10, Y3
	VXORPD  sign64<>(SB), Y3, Y3
	VMULPD  Y0, Y10, Y4
	VMULPD  Y1, Y11, Y5
	VMOVUPD ORIGINX(SI)(BX*8), Y6
	VMOVUPD ORIGINY(SI)(BX*8), Y7
	VMULPD  Y6, Y2, Y8
	VMULPD  Y7, Y3, Y9
	VADDPD  Y9, Y8, Y8
	VMOVUPD POSX(SI)(BX*8), Y9
	VSUBPD  Y8, Y9, Y12
	VMULPD  Y6, Y4, Y8
	VMULPD  Y7, Y5, Y9
	VADDPD  Y9, Y8, Y8
	VMOVUPD POSY(SI)(BX*8), Y9
	VSUBPD  Y8, Y9, Y13

	VMULPD  0(DX), Y2, Y8
	VMULPD  32(DX), Y4, Y9
	VADDPD  Y9, Y8, Y8
	VSUBPD  one64<>(SB), Y8, Y8
	VCVTPD2PSY Y8, X8
	VADDPS  one32<>(SB), X8, X8
	VMOVUPS X8, GA(SI)(BX*4)

	VMULPD  0(DX), Y3, Y9
	VMULPD  32(DX), Y5, Y10
	VADDPD  Y10, Y9, Y9
	VCVTPD2PSY Y9, X9
	VMOVUPS X9, GB(SI)(BX*4)

	VMULPD  64(DX), Y2, Y10
	VMULPD  96(DX), Y4, Y11
	VADDPD  Y11, Y10, Y10
	VCVTPD2PSY Y10, X10
	VMOVUPS X10, GC(SI)(BX*4)

	VMULPD  64(DX), Y3, Y11
	VMULPD  96(DX), Y5, Y14
	VADDPD  Y14, Y11, Y11
	VSUBPD  one64<>(SB), Y11, Y11
	VCVTPD2PSY Y11, X11
	VADDPS  one32<>(SB), X11, X11
	VMOVUPS X11, GD(SI)(BX*4)

	VMULPD  0(DX), Y12, Y0
	VMULPD  32(DX), Y13, Y1
	VADDPD  Y1, Y0, Y0
	VADDPD  128(DX), Y0, Y0
	VCVTPD2PSY Y0, X0
	VMOVUPS X0, GTX(SI)(BX*4)

	VMULPD  64(DX), Y12, Y1
	VMULPD  96(DX), Y13, Y14
	VADDPD  Y14, Y1, Y1
	VADDPD  160(DX), Y1, Y1
	VCVTPD2PSY Y1, X1
	VMOVUPS X1, GTY(SI)(BX*4)
	ADDQ $4, BX
	JMP  transform

corners:
	// Each sprite's corners, snapped, and its vertices in out.
	XORQ R8, R8
	XORQ R13, R13
	XORQ BX, BX
	MOVQ SI, R11
	VMOVUPS srcOrder<>(SB), Y14

corner:
	CMPQ BX, R10
	JGE  done
	VMOVUPS GA(SI)(BX*4), X8
	VMOVUPS GB(SI)(BX*4), X9
	VMOVUPS GC(SI)(BX*4), X10
	VMOVUPS GD(SI)(BX*4), X11
	VMOVUPS GTX(SI)(BX*4), X0
	VMOVUPS GTY(SI)(BX*4), X1
	VMOVUPS WIDTH(SI)(BX*4), X12
	VMOVUPS HEIGHT(SI)(BX*4), X13
	VMULPS  X12, X8, X8
	VMULPS  X13, X9, X9
	VMULPS  X12, X10, X10
	VMULPS  X13, X11, X11

	// Whether the box around the corners (before snapping) lies beyond
	// an edge of the clip, as quads culls an upright sprite.
	VXORPS  X12, X12, X12
	VMINPS  X12, X8, X2
	VADDPS  X2, X0, X2
	VMINPS  X12, X9, X3
	VADDPS  X3, X2, X2
	VMAXPS  X12, X8, X3
	VADDPS  X3, X0, X3
	VMAXPS  X12, X9, X4
	VADDPS  X4, X3, X3
	VMINPS  X12, X10, X4
	VADDPS  X4, X1, X4
	VMINPS  X12, X11, X5
	VADDPS  X5, X4, X4
	VMAXPS  X12, X10, X5
	VADDPS  X5, X1, X5
	VMAXPS  X12, X11, X6
	VADDPS  X6, X5, X5
	VBROADCASTSS CLIP+0(SI), X6
	VCMPPS  $2, X6, X3, X7
	VBROADCASTSS CLIP+8(SI), X6
	VCMPPS  $13, X6, X2, X6
	VORPS   X6, X7, X7
	VBROADCASTSS CLIP+4(SI), X6
	VCMPPS  $2, X6, X5, X6
	VORPS   X6, X7, X7
	VBROADCASTSS CLIP+12(SI), X6
	VCMPPS  $13, X6, X4, X6
	VORPS   X6, X7, X7
	VMOVMSKPS X7, R12
	MOVQ    BX, CX
	SHLQ    CX, R12
	ORQ     R12, R13

	VADDPS  X8, X0, X2
	VADDPS  X9, X0, X3
	VADDPS  X9, X8, X12
	VADDPS  X12, X0, X4
	VADDPS  X10, X1, X5
	VADDPS  X11, X1, X6
	VADDPS  X11, X10, X12
	VADDPS  X12, X1, X7

	// X0 x0, X2 x1, X3 x2, X4 x3; X1 y0, X5 y1, X6 y2, X7 y3: in pairs
	// of eight lanes, snapped.
	VINSERTF128 $1, X3, Y0, Y0
	VINSERTF128 $1, X6, Y1, Y1
	VINSERTF128 $1, X4, Y2, Y2
	VINSERTF128 $1, X7, Y5, Y5
	VPCMPEQD Y15, Y15, Y15
	SNAP(Y0, Y8, Y9, Y10, Y15)
	SNAP(Y1, Y8, Y9, Y10, Y15)
	SNAP(Y2, Y8, Y9, Y10, Y15)
	SNAP(Y5, Y8, Y9, Y10, Y15)

	// The sprites whose corners were out of the way's range.
	VEXTRACTF128 $1, Y15, X13
	VANDPS    X13, X15, X15
	VMOVMSKPS X15, R9
	XORQ      $15, R9
	MOVQ      BX, CX
	SHLQ      CX, R9
	ORQ       R9, R8

	// Each sprite's eight coordinates in a row: x0 y0 x1 y1 x2 y2 x3 y3.
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y5, Y2, Y10
	VUNPCKHPS Y5, Y2, Y11
	VUNPCKLPD Y10, Y8, Y0
	VUNPCKHPD Y10, Y8, Y1
	VUNPCKLPD Y11, Y9, Y2
	VUNPCKHPD Y11, Y9, Y3

	// The four sprites' vertices. SI walks their source rectangles and
	// colours, sixteen bytes each.
	MOVQ BX, R9
	SHLQ $4, R9
	ADDQ R9, SI
	VERTICES(Y0, SRC+0, COLOR+0, 0)
	VERTICES(Y1, SRC+16, COLOR+16, 192)
	VERTICES(Y2, SRC+32, COLOR+32, 384)
	VERTICES(Y3, SRC+48, COLOR+48, 576)
	MOVQ R11, SI

	ADDQ $768, DI
	ADDQ $4, BX
	JMP  corner

done:
	VZEROUPPER
	MOVQ R8, bad+32(FP)
	MOVQ R13, culled+40(FP)
	RET

// func prefetch(transforms, sprites *unsafe.Pointer, n int)
TEXT ·prefetch(SB), NOSPLIT, $0-24
	MOVQ transforms+0(FP), SI
	MOVQ sprites+8(FP), DI
	MOVQ n+16(FP), CX
	TESTQ CX, CX
	JLE  pfdone

pfloop:
	MOVQ (SI), AX
	PREFETCHT0 (AX)
	MOVQ (DI), AX
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	ADDQ $8, SI
	ADDQ $8, DI
	DECQ CX
	JNZ  pfloop

pfdone:
	RET
