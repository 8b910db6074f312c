#!/usr/bin/env python3
"""bookclub's benchmark suite: builds bookclub in release mode, generates stores of 1,000 to
1,000,000 progress entries (300 books per 100,000 entries, one book with 1,000 entries), and times
each command over repeated runs: median, spread (min to max) and peak memory (max RSS).
Where Taskwarrior is installed, times `task add` and `task next` on as many tasks, and prints ratios.

Usage: python3 Benchmarks/run.py [--sizes 1000,10000,100000,1000000] [--runs N] [--books N]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build():
    flags = ["-c", "release", "-Xswiftc", "-static-executable"]
    subprocess.run(["swift", "build", *flags], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", *flags, "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    return os.path.join(path, "bookclub")


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def generate_store(folder, entries, books=None):
    """A store as bookclub writes it: the snapshot with the latest entry of each reading, an empty
    journal of its generation, and the history."""
    books = books or max(3, entries * 300 // 100_000)
    big = min(1000, entries)
    counts = [big] + [0] * (books - 1)
    rest = entries - big
    for i in range(rest):
        counts[1 + i % (books - 1)] += 1
    start = 1_600_000_000
    compact = dict(sort_keys=True, separators=(",", ":"))
    state_books = []
    history = os.path.join(folder, "store.json.history")
    length = 0
    with open(history, "w") as out:
        for b, count in enumerate(counts):
            book_id = uuid.UUID(int=b + 1).hex
            reading = str(uuid.UUID(int=(1 << 64) + b)).upper()
            pages = max(100_000, count * 10 + 10_000)
            latest = None
            for e in range(count):
                entry = {"id": str(uuid.uuid4()).upper(), "page": (e + 1) * 10, "progress": (e + 1) * 10 / pages,
                         "time": iso(start + b * 100_000 + e * 60)}
                if e % 10 == 0:
                    entry["note"] = f"note {e} on book {b}"
                line = json.dumps({"book": book_id, "entry": entry, "reading": reading}, **compact) + "\n"
                out.write(line)
                length += len(line.encode())
                latest = entry
            readings = [{"id": reading, "started": iso(start), **({"latest": latest} if latest else {})}]
            state_books.append({"added": iso(start), "id": book_id, "pages": pages, "readings": readings,
                                "tags": [], "title": f"Book {b:05d}", "author": "An Author"})
    generation = uuid.uuid4().hex
    document = {"books": state_books, "clubs": [], "generation": generation, "historyLength": length, "schemaVersion": 3,
                "state": uuid.uuid4().hex}
    with open(os.path.join(folder, "store.json"), "w") as out:
        out.write(json.dumps(document, indent=2, sort_keys=True, separators=(",", " : ")) + "\n")
    with open(os.path.join(folder, "store.json.journal"), "w") as out:
        out.write(json.dumps({"generation": generation}, **compact) + "\n")
    os.sync()  # or the first write's fsync pays for writing out the generated history
    return books


def generate_tasks(folder, count):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pending.data"), "w") as out:
        for i in range(count):
            out.write(f'[description:"task {i}" entry:"{1_600_000_000 + i}" modified:"{1_600_000_000 + i}" '
                      f'status:"pending" uuid:"{uuid.uuid4()}"]\n')
    rc = os.path.join(folder, "taskrc")
    with open(rc, "w") as out:
        out.write(f"data.location={folder}\nconfirmation=off\nverbose=nothing\nnews.version=2.6.2\nhooks=off\n")
    return rc


def measure(commands, runs):
    """For each (command, env) by name: median, min and max of wall time in ms over `runs` runs, and
    peak memory (max RSS) in MB, read by GNU time in one more run (a forked Python child would report
    Python's own memory). The runs are interleaved, one of each command in turn, so that a machine
    busier one moment than the next weighs on every command alike, and their ratios hold."""
    times = {name: [] for name in commands}
    for _ in range(runs):
        # Untimed: the first process after a heavy one (task next at 1,000,000 takes 2 GB) pays for it.
        subprocess.run(["true"])
        for name, (command, env) in commands.items():
            started = time.perf_counter()
            if subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
                sys.exit(f"failed: {' '.join(command)}")
            times[name].append((time.perf_counter() - started) * 1000)
    results = {}
    for name, (command, env) in commands.items():
        peak = float("nan")
        if os.path.exists("/usr/bin/time"):
            result = subprocess.run(["/usr/bin/time", "-f", "%M", *command], env=env, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            peak = int(result.stderr.strip().splitlines()[-1]) / 1024
        results[name] = (statistics.median(times[name]), min(times[name]), max(times[name]), peak)
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--books", type=int, help="a fixed number of books at every size (default: 300 per 100,000 entries)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    binary = build()
    task = shutil.which("task")
    work = tempfile.mkdtemp(prefix="bookclub-bench-")
    env = dict(os.environ, HOME=work, NO_COLOR="1", TZ="UTC")
    rows = []
    results = {}
    for size in sizes:
        runs = args.runs if size <= 10_000 else max(3, args.runs // 3)
        folder = os.path.join(work, str(size))
        os.makedirs(folder)
        generate_store(folder, size, args.books)
        store = os.path.join(folder, "store.json")
        base = [binary, "--store", store]
        big = uuid.UUID(int=1).hex
        commands = {
            "true": ["true"],
            "--version": [binary, "--version"],
            "progress": base + ["progress", uuid.UUID(int=2).hex, "+1"],
            "progress (by title)": base + ["progress", "book 00002", "+1"],
            "list": base + ["list"],
            "show (1,000 entries)": base + ["show", big],
            "stats (every entry)": base + ["stats", "--json"],
            "export (every entry)": base + ["export"],
        }
        commands = {name: (command, env) for name, command in commands.items()}
        if task:
            rc = generate_tasks(os.path.join(work, f"task-{size}"), size)
            task_env = dict(env, TASKRC=rc)
            commands["task add"] = ([task, "add", "benchmark"], task_env)
            commands["task next"] = ([task, "next"], task_env)
        for name, result in measure(commands, runs).items():
            results[(size, name)] = result
            rows.append((size, name, result))
        print(f"... {size} entries done", file=sys.stderr)

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"Machine: {cpu}, {os.cpu_count()} cores; release build, -static-executable")
    print(f"Books: {args.books or '300 per 100,000 entries'}")
    print(f"Runs: {args.runs} up to 10,000 entries, {max(3, args.runs // 3)} above, interleaved; times in ms, memory in MB\n")
    print("| entries | command | median ms | min–max ms | peak MB |")
    print("|---:|---|---:|---:|---:|")
    for size, name, (median, low, high, peak) in rows:
        label = f"{size:,}" if isinstance(size, int) else size
        print(f"| {label} | {name} | {median:.1f} | {low:.1f}–{high:.1f} | {peak:.1f} |")
    print("\nTargets:")
    def check(label, value, limit):
        print(f"- {label}: {value:.2f} (target ≤ {limit}) {'met' if value <= limit else 'MISSED'}")
    check("--version / true", results[(sizes[0], "--version")][0] / results[(sizes[0], "true")][0], 4)
    if len(sizes) > 1:
        check(f"progress at {sizes[-1]:,} / at {sizes[0]:,}",
              results[(sizes[-1], "progress")][0] / results[(sizes[0], "progress")][0], 1.5)
    for size in sizes:
        if (size, "task add") in results:
            check(f"progress / task add at {size:,}", results[(size, "progress")][0] / results[(size, "task add")][0], 0.5)
    if (10_000, "task next") in results:
        check("list / task next at 10,000", results[(10_000, "list")][0] / results[(10_000, "task next")][0], 0.25)
    for size in sizes:
        if size >= 100_000:
            for name in ["stats (every entry)", "export (every entry)"]:
                check(f"{name.split()[0]} at {size:,}: µs per entry", results[(size, name)][0] * 1000 / size, 5)
    if 100_000 in sizes:
        peak = max(v[3] for (s, n), v in results.items() if s == 100_000 and not n.startswith("task"))
        check("peak memory of any command at 100,000 (MB)", peak, 50)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
