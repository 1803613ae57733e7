// play.js runs a Go program built for GOOS=js GOARCH=wasm in this page.
// Load it after wasm_exec.js (the Go toolchain's glue), then call
// play("main.wasm", "name").
//
// The query string is the program's command line: ?NAME=VALUE becomes the
// flag -NAME=VALUE, and ?NAME alone becomes -NAME. So
// ?scene=arena&autopilot&seconds=10 runs `name -scene=arena -autopilot -seconds=10`.
//
// What the program prints goes to the console (stdout as console.log, stderr
// as console.error, a line at a time) and, when it exits, onto the page; the
// exit code is then in window.goExitCode and the console's last line is
// "exit code N". Files it creates live in memory: when it closes one (and
// does not rename or remove it within a moment) the browser downloads it
// under its base name, so -record, -cpuprofile and screenshots arrive as
// downloads. Reading a file it did not write fails with "no such file".
//
// window.goProgress says how far the program has got, for whoever watches
// the page (the tests tell a slow page from a stuck one by it): frames, the
// animation frames requested on the page (a game requests the next once it
// has run a frame), and printed, the bytes the program has written to
// stdout and stderr.
"use strict";

(() => {
	const O = { O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024 };
	const oflags = (f) => f & (O.O_WRONLY | O.O_RDWR);
	const fail = (code, msg) => {
		const err = new Error(msg);
		err.code = code;
		return err;
	};
	const progress = { frames: 0, printed: 0 };
	globalThis.goProgress = progress;
	// ebiten asks for its canvas's WebGL context with the browser's default
	// antialias, on: a multisampled drawing buffer, resolved every frame. A
	// scene drawn straight on the canvas (engine/window does in a browser)
	// would get smoothed edges that the same game natively does not, and a
	// browser that draws WebGL in software (SwiftShader) pays for every
	// sample: off.
	const getContext = HTMLCanvasElement.prototype.getContext;
	HTMLCanvasElement.prototype.getContext = function (type, attributes) {
		if (type === "webgl2" || type === "webgl") attributes = { ...attributes, antialias: false };
		return getContext.call(this, type, attributes);
	};
	const requestFrame = globalThis.requestAnimationFrame.bind(globalThis);
	globalThis.requestAnimationFrame = (callback) => {
		progress.frames++;
		return requestFrame(callback);
	};

	const decoder = new TextDecoder("utf-8");
	const output = []; // everything the program printed, for the page
	const lines = { 1: "", 2: "" };
	const print = (fd, buf) => {
		progress.printed += buf.length;
		const text = decoder.decode(buf, { stream: true });
		output.push(text);
		lines[fd] += text;
		const nl = lines[fd].lastIndexOf("\n");
		if (nl >= 0) {
			(fd === 2 ? console.error : console.log)(lines[fd].substring(0, nl));
			lines[fd] = lines[fd].substring(nl + 1);
		}
		return buf.length;
	};

	// The in-memory files: path -> {data: Uint8Array, size, pending: timer}.
	const files = new Map();
	const fds = new Map(); // fd -> {path, pos, append}
	let nextFD = 3;
	const norm = (p) => (p.startsWith("/") ? p : "/" + p).replace(/\/+/g, "/");
	const grow = (f, n) => {
		if (n > f.data.length) {
			const d = new Uint8Array(Math.max(n, 2 * f.data.length));
			d.set(f.data.subarray(0, f.size));
			f.data = d;
		}
	};
	const stats = (size, dir) => ({
		dev: 0, ino: 0, mode: dir ? 0o40755 : 0o100644, nlink: 1, uid: 0, gid: 0, rdev: 0,
		size: size, blksize: 4096, blocks: Math.ceil(size / 512),
		atimeMs: Date.now(), mtimeMs: Date.now(), ctimeMs: Date.now(),
		isDirectory: () => dir,
	});
	const download = (path) => {
		const f = files.get(path);
		if (!f) return;
		clearTimeout(f.pending);
		f.pending = undefined;
		const a = document.createElement("a");
		a.href = URL.createObjectURL(new Blob([f.data.subarray(0, f.size)], { type: "application/octet-stream" }));
		a.download = path.substring(path.lastIndexOf("/") + 1);
		document.body.appendChild(a);
		a.click();
		a.remove();
		console.log(`play.js: downloading ${a.download} (${f.size} bytes)`);
	};
	const later = (path) => {
		const f = files.get(path);
		clearTimeout(f.pending);
		f.pending = setTimeout(() => download(path), 200);
	};
	const flushDownloads = () => {
		for (const [path, f] of files) {
			if (f.pending !== undefined) download(path);
		}
	};
	const file = (fd) => {
		const h = fds.get(fd);
		if (!h) throw fail("EBADF", "bad file descriptor");
		return h;
	};
	const call = (cb, fn) => {
		let res;
		try {
			res = fn();
		} catch (err) {
			cb(err);
			return;
		}
		cb(null, res);
	};

	globalThis.fs = {
		constants: { ...O, O_DIRECTORY: -1 },
		writeSync: (fd, buf) => print(fd, buf),
		write(fd, buf, offset, length, position, cb) {
			call(cb, () => {
				if (fd === 1 || fd === 2) return print(fd, buf.subarray(offset, offset + length));
				const h = file(fd), f = files.get(h.path);
				if (!f) throw fail("ENOENT", "no such file or directory");
				let at = position ?? (h.append ? f.size : h.pos);
				grow(f, at + length);
				f.data.set(buf.subarray(offset, offset + length), at);
				f.size = Math.max(f.size, at + length);
				if (position === null) h.pos = at + length;
				return length;
			});
		},
		read(fd, buf, offset, length, position, cb) {
			call(cb, () => {
				if (fd === 0) return 0;
				const h = file(fd), f = files.get(h.path);
				const at = position ?? h.pos;
				const n = Math.max(0, Math.min(length, f.size - at));
				buf.set(f.data.subarray(at, at + n), offset);
				if (position === null) h.pos = at + n;
				return n;
			});
		},
		open(path, flags, mode, cb) {
			call(cb, () => {
				path = norm(path);
				let f = files.get(path);
				if (f && flags & O.O_CREAT && flags & O.O_EXCL) throw fail("EEXIST", "file exists");
				if (!f && !(flags & O.O_CREAT)) throw fail("ENOENT", "no such file or directory (a page can only read files its program wrote)");
				if (!f) {
					f = { data: new Uint8Array(4096), size: 0 };
					files.set(path, f);
				}
				if (oflags(flags) && flags & O.O_TRUNC) f.size = 0;
				clearTimeout(f.pending);
				f.pending = undefined;
				const fd = nextFD++;
				fds.set(fd, { path, pos: 0, append: !!(flags & O.O_APPEND), writing: oflags(flags) !== 0 });
				return fd;
			});
		},
		close(fd, cb) {
			call(cb, () => {
				const h = file(fd);
				fds.delete(fd);
				if (h.writing && files.has(h.path)) later(h.path);
			});
		},
		fstat(fd, cb) { call(cb, () => stats(files.get(file(fd).path)?.size ?? 0, false)); },
		stat(path, cb) { this.lstat(path, cb); },
		lstat(path, cb) {
			call(cb, () => {
				path = norm(path);
				if (path === "/") return stats(0, true);
				const f = files.get(path);
				if (!f) throw fail("ENOENT", "no such file or directory");
				return stats(f.size, false);
			});
		},
		rename(from, to, cb) {
			call(cb, () => {
				from = norm(from), to = norm(to);
				const f = files.get(from);
				if (!f) throw fail("ENOENT", "no such file or directory");
				files.delete(from);
				files.set(to, f);
				for (const h of fds.values()) if (h.path === from) h.path = to;
				if (f.pending !== undefined) later(to);
			});
		},
		unlink(path, cb) {
			call(cb, () => {
				const f = files.get(norm(path));
				if (!f) throw fail("ENOENT", "no such file or directory");
				clearTimeout(f.pending);
				files.delete(norm(path));
			});
		},
		ftruncate(fd, length, cb) {
			call(cb, () => {
				const f = files.get(file(fd).path);
				grow(f, length);
				f.data.fill(0, f.size, length);
				f.size = length;
			});
		},
		truncate(path, length, cb) { call(cb, () => { throw fail("ENOSYS", "not implemented"); }); },
		fsync(fd, cb) { call(cb, () => { file(fd); }); },
		mkdir(path, perm, cb) { cb(null); }, // directories are only names here
		rmdir(path, cb) { cb(null); },
		readdir(path, cb) { call(cb, () => { throw fail("ENOSYS", "not implemented"); }); },
		chmod(path, mode, cb) { cb(null); },
		fchmod(fd, mode, cb) { cb(null); },
		chown(path, uid, gid, cb) { cb(null); },
		fchown(fd, uid, gid, cb) { cb(null); },
		lchown(path, uid, gid, cb) { cb(null); },
		utimes(path, atime, mtime, cb) { cb(null); },
		link(path, link, cb) { call(cb, () => { throw fail("ENOSYS", "not implemented"); }); },
		symlink(path, link, cb) { call(cb, () => { throw fail("ENOSYS", "not implemented"); }); },
		readlink(path, cb) { call(cb, () => { throw fail("ENOSYS", "not implemented"); }); },
	};
	globalThis.process = {
		getuid: () => -1, getgid: () => -1, geteuid: () => -1, getegid: () => -1,
		getgroups() { throw fail("ENOSYS", "not implemented"); },
		pid: -1, ppid: -1,
		umask() { throw fail("ENOSYS", "not implemented"); },
		cwd: () => "/",
		chdir() { throw fail("ENOSYS", "not implemented"); },
	};

	// argv turns the query string into flags.
	const argv = (name) => {
		const args = [name];
		for (const [k, v] of new URLSearchParams(location.search)) {
			args.push(v === "" ? `-${k}` : `-${k}=${v}`);
		}
		return args;
	};

	// show puts text on the page, above the game's canvas.
	const show = (text, error) => {
		let pre = document.getElementById("play-output");
		if (!pre) {
			pre = document.createElement("pre");
			pre.id = "play-output";
			pre.style.cssText = "position:fixed;left:0;top:0;margin:0;padding:8px;max-height:100%;max-width:100%;" +
				"overflow:auto;box-sizing:border-box;font:12px monospace;background:rgba(0,0,0,.75);color:#ddd;z-index:10";
			document.body.appendChild(pre);
		}
		pre.style.color = error ? "#f88" : "#ddd";
		pre.textContent = text;
	};

	globalThis.play = async (wasmURL, name) => {
		const go = new Go();
		go.argv = argv(name);
		go.exit = (code) => {
			for (const fd of [1, 2]) if (lines[fd] !== "") print(fd, new TextEncoder().encode("\n"));
			flushDownloads();
			console.log(`exit code ${code}`);
			globalThis.goExitCode = code;
			show(output.join("") + `\n${go.argv.join(" ")}: exit code ${code}`, code !== 0);
		};
		show(`loading ${wasmURL} ...`);
		try {
			const { instance } = await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject);
			document.getElementById("play-output").remove();
			await go.run(instance);
		} catch (err) {
			console.error(`play.js: ${wasmURL}: ${err}`);
			globalThis.goExitCode = -1;
			show(`${wasmURL}: ${err}`, true);
		}
	};
})();
