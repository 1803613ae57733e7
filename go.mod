module github.com/fixedstep/fixedstep

go 1.25.0

require (
	github.com/hajimehoshi/ebiten/v2 v2.10.4
	github.com/jakecoffman/cp/v2 v2.4.0
	github.com/yohamta/donburi v1.15.8
)

require (
	github.com/ebitengine/gomobile v0.0.0-20260820040257-d11f821a26a6 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.11.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
