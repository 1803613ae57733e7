package devtools_test

import (
	"bufio"
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/internal/windowtest"
	"github.com/fixedstep/fixedstep/systems/devtools"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// windowChild, set to a folder, makes the test process a child that runs a
// real window (see TestMain) and leaves its screenshot there.
const windowChild = "SYSTEMS_TEST_WINDOW_CHILD"

// The inspector in a real window under Xvfb, driven through the X server as
// a player does: F4 shows it, a click on a circle (seen through a zoomed
// camera) picks it, the panel shows its components, a click on the panel's
// "[-] Shape" folds that component and picks nothing behind the panel, and a
// screenshot of the window shows the panel at the top right and the circle
// outlined. It runs in a child process, since ebiten runs one game a process
// and the test game of TestMain is one.
func TestInspectorClickInAWindow(t *testing.T) {
	if dir := os.Getenv(windowChild); dir != "" {
		inspectorWindowChild(t, dir)
		return
	}
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests under xvfb-run -a (make test)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInspectorClickInAWindow$", "-test.v", "-test.count=1")
	d, err := windowtest.NewDisplay() // its own: clicks and keys reach its window whatever other tests do
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cmd.Env = append(d.Env(nil), windowChild+"="+dir)
	// For as long as the child prints: its watchdog ends it when its frames
	// stop (see inspectorWindowChild).
	out, err := windowtest.RunChild(cmd)
	if err != nil || !strings.Contains(out, "--- PASS") {
		t.Fatalf("child: %v\n%s", err, out)
	}
	t.Logf("child:\n%s", out)
	var cx, cy int
	for line := range strings.Lines(out) {
		if _, err := fmt.Sscanf(line, "CIRCLE AT %d %d", &cx, &cy); err == nil {
			break
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "inspector.png"))
	if err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("INSPECTOR_WINDOW_PNG"); keep != "" {
		os.WriteFile(keep, data, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var ring, dark, heading int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			d2 := (x-cx)*(x-cx) + (y-cy)*(y-cy)
			switch {
			case r > 230 && g < 110 && bl > 200: // the outline's magenta
				if d2 >= 18*18 && d2 <= 26*26 { // radius 16 at zoom 1.25, and 3 pixels out
					ring++
				} else {
					t.Errorf("magenta at %d,%d, away from the circle at %d,%d", x, y, cx, cy)
				}
			case x >= b.Max.X-150 && y < 150 && r < 30 && g < 30 && bl < 30:
				dark++
			case x >= b.Max.X-330 && r > 90 && r < 150 && g > 180 && g < 235 && bl > 230:
				heading++
			}
		}
	}
	if b.Dx() != 480 || ring < 80 || dark < 10000 || heading < 100 {
		t.Fatalf("%dx%d: ring %d pixels about %d,%d; panel %d dark, %d heading pixels", b.Dx(), b.Dy(), ring, cx, cy,
			dark, heading)
	}
}

// inspectorWindowChild plays a Stage in a window while an X client of its
// own presses and clicks, then checks what the inspector showed.
func inspectorWindowChild(t *testing.T, dir string) {
	title := fmt.Sprintf("systems inspector %d", os.Getpid())
	var (
		mu       sync.Mutex
		visible  bool
		picked   donburi.Entity
		panelTxt string
		rect     = [4]int{}
		shoot    bool
		saved    error
		done     bool
		circle   donburi.Entity
		frames   int
		waiting  = "the window"
		returned bool
		cx, cy   float64 // the circle on the screen
	)
	state := func(f func()) { mu.Lock(); defer mu.Unlock(); f() }
	// The watchdog ends the child when its frames stop (the window not
	// found or not drawing, the process not exiting after Run returned).
	windowtest.ChildWatchdog(func() (p string) {
		state(func() {
			p = fmt.Sprintf("%d frames, waiting for %s", frames, waiting)
			if returned {
				p = "Run returned; the process has yet to exit"
			}
		})
		return p
	})
	// wait waits for cond, for up to 600 frames: 10 s at 60 Hz, longer on a
	// busy machine, as long as needed (what it waits for comes a few frames
	// after a key or a click).
	const maxWaitFrames = 600
	wait := func(what string, cond func() bool) {
		var start int
		state(func() { start, waiting = frames, what })
		for {
			var ok bool
			var n int
			state(func() { ok, n = cond(), frames-start })
			if ok {
				return
			}
			if n > maxWaitFrames {
				fmt.Printf("CHILD FAIL: waited %d frames for %s\n", n, what)
				os.Exit(2)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	scene := engine.NewScene("Inspect", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{Physics: &physics.Config{}})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		c := st.Physics.SpawnCircle(16, &physics.BodyOptions{Position: cp.Vector{X: 150, Y: 110}})
		st.Physics.SpawnBox(40, 24, &physics.BodyOptions{Position: cp.Vector{X: 330, Y: 150}, Angle: 0.3})
		cam := st.World.Entry(st.World.Create(components.TransformC, components.CameraC))
		components.TransformC.SetValue(cam, components.NewTransform(components.Pose{X: 230, Y: 150}))
		components.CameraC.SetValue(cam, components.Camera{Zoom: 1.25})
		st.Sched.AddUpdate(0, "physics", st.Physics.Update)
		st.Sched.AddRender(devtools.OverlayLayer+1, "watch", func(w donburi.World, ev engine.Event) {
			mu.Lock()
			defer mu.Unlock()
			if circle == donburi.Null {
				circle = c
				v := gfx.View(components.CameraC.Get(cam), components.TransformC.Get(cam).Cur, window.Screen(ev).Bounds())
				cx, cy = v.Apply(150, 110)
			}
			frames++
			visible = st.Inspector.Visible()
			picked, _ = st.Inspector.Selected()
			panelTxt = st.Inspector.Text()
			r := st.Inspector.Rect()
			rect = [4]int{r.Min.X, r.Min.Y, r.Max.X, r.Max.Y}
			if shoot {
				shoot = false
				window.Screenshot(filepath.Join(dir, "inspector.png"), func(_ string, err error) {
					mu.Lock()
					saved, done = err, true
					mu.Unlock()
					loop.Stop()
				})
			}
		})
		return st.Run()
	})
	go func() {
		x, err := windowtest.Dial()
		if err != nil {
			fmt.Printf("CHILD FAIL: %v\n", err)
			os.Exit(2)
		}
		defer x.Close()
		win, err := x.FindWindow(title, windowtest.NewWatch(windowtest.CPUProgress(os.Getpid())))
		if err == nil {
			err = x.Focus(win)
		}
		// framesDrawn waits until n more frames were drawn: a key or a
		// button is held that long, since a busy machine's frame outlasts
		// any fixed hold, and a press and release between two frames is
		// never seen. (The watchdog ends the child if frames stop.)
		framesDrawn := func(n int) {
			var start, now int
			state(func() { start = frames })
			for now-start < n {
				time.Sleep(5 * time.Millisecond)
				state(func() { now = frames })
			}
		}
		click := func(wx, wy int) error {
			if err := x.MovePointer(win, wx, wy); err != nil {
				return err
			}
			framesDrawn(2)
			if err := x.MouseDown(windowtest.ButtonLeft); err != nil {
				return err
			}
			framesDrawn(2)
			return x.MouseUp(windowtest.ButtonLeft)
		}
		wait("the first frame", func() bool { return circle != donburi.Null })
		if err == nil {
			if err = x.Press("F4"); err == nil {
				framesDrawn(2)
				err = x.Release("F4")
			}
		}
		wait("the inspector", func() bool { return visible })
		var px, py float64
		state(func() { px, py = cx, cy })
		if err == nil {
			err = click(int(px), int(py))
		}
		wait("the circle picked", func() bool { return picked == circle && strings.Contains(panelTxt, "[-] Shape") })
		// A click on "[-] Shape" in the panel: row k of the panel is line k
		// of the text (nothing is scrolled), below a 4-pixel pad.
		lineH := inspectorLineHeight(t)
		var hx, hy int
		state(func() {
			lines := strings.Split(panelTxt, "\n")
			for k, l := range lines {
				if l == "[-] Shape" {
					hx, hy = rect[0]+20, rect[1]+4+k*lineH+lineH/2
				}
			}
		})
		if err == nil {
			err = click(hx, hy)
		}
		wait("Shape folded", func() bool { return strings.Contains(panelTxt, "[+] Shape") })
		state(func() { shoot = true })
		if err != nil {
			fmt.Printf("CHILD FAIL: %v\n", err)
			os.Exit(2)
		}
		wait("the screenshot", func() bool { return done })
	}()
	err := window.Run(scene, nil, &window.Options{Title: title, Width: 480, Height: 300,
		ScreenWidth: 480, ScreenHeight: 300})
	mu.Lock()
	defer mu.Unlock()
	returned = true
	fmt.Printf("CIRCLE AT %d %d\n", int(cx), int(cy))
	sc := bufio.NewScanner(strings.NewReader(panelTxt))
	for sc.Scan() {
		fmt.Println("TEXT:", sc.Text())
	}
	if err != nil || !done || saved != nil {
		t.Fatalf("Run: %v; screenshot taken %v: %v", err, done, saved)
	}
	if picked != circle {
		t.Errorf("picked %v, want the circle %v (the click on the panel must not pick)", picked, circle)
	}
	for _, want := range []string{"e1v0", "[-] Body", `"dynamic"`, "Body.Position         X=150  Y=110", "[+] Shape (",
		"[-] Transform", "Cur   X=150  Y=110  Angle=0"} {
		if !strings.Contains(panelTxt, want) {
			t.Errorf("the panel lacks %q", want)
		}
	}
}
