#!/usr/bin/env python3
"""bookclub's benchmark suite: builds bookclub in release mode as `make install` does, builds stores of
1,000 to 1,000,000 progress entries (300 books per 100,000 entries, one book with 1,000 entries) two
ways, and times each command over repeated runs: median, spread (min to max) and peak memory (max RSS).

- [generated]: as the generator writes them, every entry in the history, the snapshot folded.
- [real]: as a reader builds them: the generator writes the books and the big book's entries, the
  real Goodreads and StoryGraph exports of `../shared/fixtures/imports` are imported, and
  `log --stdin` logs the other entries in batches of at most 100,000 lines as a cron job or an
  e-reader export writes them (by title, each with a time, some backdated, one in seven with a note).

Beside them, in the same interleaved rounds (the commands that take seconds at 1,000,000 entries in
rounds of their own): `true`; the durable-append floor (`dd` appending 200 bytes and syncing them);
`sqlite3 DB "INSERT ..."` into a WAL database of as many rows (installed with apt-get when missing);
and, where Taskwarrior is installed, `task add` and `task next` on as many tasks. Then: `log --stdin`
of 100,000 lines over 300 books, by id without times and as such a job writes them, and the 30 writes
after the first and after an import of 1,000 books, each against the same write on a copy of the store
the change left alone; `import kindle` of a 300 MB clippings file made
of the real ones; sync; shared clubs; and, once on the [real] store of the largest size, the commands
that read every entry and are not timed above (`export --output` in each format, `doctor`, `import json`
of the export into an empty store, `sync init`).
Prints the table and every target, met or missed.

Usage: python3 Benchmarks/run.py [--quick] [--sizes 1000,10000,100000,1000000] [--runs N] [--books N]
"""
import argparse, csv, itertools, json, os, random, re, shutil, sqlite3, statistics, subprocess, sys, tempfile, time, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build():
    """bookclub as `make install` builds it: one static release executable, stripped."""
    flags = ["-c", "release", "-Xswiftc", "-static-executable",
             "-Xswiftc", "-Xfrontend", "-Xswiftc", "-disable-concrete-type-metadata-mangled-name-accessors"]
    subprocess.run(["swift", "build", *flags], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    path = subprocess.run(["swift", "build", *flags, "--show-bin-path"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    stripped = os.path.join(ROOT, ".build", "bench", "bookclub")
    os.makedirs(os.path.dirname(stripped), exist_ok=True)
    shutil.copy2(os.path.join(path, "bookclub"), stripped)
    if shutil.which("strip"):
        subprocess.run(["strip", stripped], check=True)
    return stripped


def iso(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


CJK_TITLES = ["ノルウェイの森", "海辺のカフカ", "三体", "活着", "百年の孤独", "토지", "雪国", "红楼梦"]


def title(b):
    """Book b's title: one in ten in Japanese, Chinese or Korean, one in ten with an emoji, the others
    `Book 00042` (`progress (by title)` names book 2 so)."""
    if b % 10 == 3:
        return f"{CJK_TITLES[b // 10 % len(CJK_TITLES)]} {b:05d}"
    if b % 10 == 7:
        return f"Book {b:05d} 📚"
    return f"Book {b:05d}"


def generate_store(folder, entries, books=None, logged=False):
    """A store as bookclub writes it: the snapshot with the latest entry of each reading, an empty
    journal of its generation, and the history. With `logged`, only the big book's entries: the
    others are left to `log --stdin` (see `log_batches`)."""
    books = generate_books(entries, books)
    big = min(1000, entries)
    counts = [big] + [0] * (books - 1)
    rest = 0 if logged else entries - big
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
            previous = -1  # each line names where its book's line before it begins
            for e in range(count):
                entry = {"id": str(uuid.uuid4()).upper(), "page": (e + 1) * 10, "progress": (e + 1) * 10 / pages,
                         "time": iso(start + b * 100_000 + e * 60)}
                if e % 10 == 0:
                    entry["note"] = f"note {e} on book {b}"
                line = json.dumps({"book": book_id, "entry": entry, "previous": previous, "reading": reading},
                                  **compact) + "\n"
                out.write(line)
                previous = length
                length += len(line.encode())
                latest = entry
            readings = [{"id": reading, "started": iso(start), **({"latest": latest} if latest else {})}]
            state_books.append({"added": iso(start), "id": book_id, "pages": pages, "readings": readings,
                                "tags": [], "title": title(b), "author": "An Author",
                                **({"historyTail": previous} if latest else {})})
    generation = uuid.uuid4().hex
    document = {"books": state_books, "clubs": [], "generation": generation, "historyLength": length, "schemaVersion": 3,
                "state": uuid.uuid4().hex}
    with open(os.path.join(folder, "store.json"), "w", encoding="utf-8") as out:
        out.write(json.dumps(document, indent=2, sort_keys=True, separators=(",", " : "), ensure_ascii=False) + "\n")
    with open(os.path.join(folder, "store.json.journal"), "w") as out:
        out.write(json.dumps({"generation": generation}, **compact) + "\n")
    os.sync()  # or the first write's fsync pays for writing out the generated history
    return books


# The times of the batches that build stores and of the batch timed: 2020 to 2025.
BATCH_START, BATCH_END = 1_577_836_800, 1_767_225_600
OFFSETS = [("Z", 0), ("+05:30", 330), ("-08:00", -480), ("+09:00", 540), ("+01:00", 60), ("-03:00", -180)]


def realistic_lines(books, count, start, end, first_book=0, pages=None, seed=0):
    """`count` lines of `log --stdin` over books `first_book` to `books - 1`, as a cron job or an
    e-reader export writes them: by title, each with a time from `start` to `end` (one in three with
    `Z`, the others with an offset such as `+05:30`), one in seven with a note (in Japanese one time in
    two), half of them with their text escaped (`\\u30ce`) as Python writes JSON, half as it is, as jq
    does. Each book's pages go up with time from `pages[b]` (0 when absent), ten a line. Most books'
    lines come interleaved in time order, but for one in twenty sent a day to a month late; every
    fifth book's come at the end, all at once and book by book, as an e-reader export lists them.
    Returns the lines and each book's last page."""
    rng = random.Random(seed)
    pages = dict(pages or {})
    span = end - start
    listed = list(range(first_book, books))
    per_book = {b: count // len(listed) + (1 if i < count % len(listed) else 0) for i, b in enumerate(listed)}
    events = []
    for b, n in per_book.items():
        times = sorted(rng.sample(range(start, end), n)) if n <= span else [start + i * span // n for i in range(n)]
        for j, t in enumerate(times):
            page = pages.get(b, 0) + (j + 1) * 10
            if b % 5 == 4:
                key = (end + b, j)
            else:
                key = (t + (rng.randrange(86_400, 30 * 86_400) if rng.random() < 0.05 else 0), 0)
            events.append((key, b, page, t))
        pages[b] = pages.get(b, 0) + n * 10
    events.sort()
    text = []
    for i, (_, b, page, t) in enumerate(events):
        offset = OFFSETS[0] if i % 3 == 0 else OFFSETS[rng.randrange(1, len(OFFSETS))]
        line = {"book": title(b), "page": page, "time": stamp(t, offset)}
        if i % 7 == 0:
            line["note"] = f"p. {page}: " + ("まだ読んでいる、面白い" if b % 2 else "still going, and liking it")
        text.append(json.dumps(line, ensure_ascii=bool(i % 2)) + "\n")
    return "".join(text), pages


def stamp(seconds, offset):
    """`2026-11-20T22:10:00+05:30`: the moment `seconds` written with `offset` (its text and minutes)."""
    text, minutes = offset
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds + minutes * 60)) + text


def log_batches(binary, env, folder, entries, books=None):
    """Logs a store's entries as a reader's jobs would: after `generate_store(..., logged=True)` wrote
    the books and the big book's entries, `log --stdin` logs the others (as `generate_store` spreads
    them) in batches of at most 100,000 realistic lines, each batch on the next stretch of 2020 to
    2025. Returns the seconds the batches took and how many there were."""
    books = generate_books(entries, books)
    rest = entries - min(1000, entries)
    if rest == 0 or books < 2:
        return 0.0, 0, 0.0
    batches = -(-rest // 100_000)
    pages, spent, peak = {}, 0.0, 0.0
    for k in range(batches):
        count = rest // batches + (1 if k < rest % batches else 0)
        window = (BATCH_START + k * (BATCH_END - BATCH_START) // batches,
                  BATCH_START + (k + 1) * (BATCH_END - BATCH_START) // batches)
        lines, pages = realistic_lines(books, count, *window, first_book=1, pages=pages, seed=k)
        started = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "--store", os.path.join(folder, "store.json"), "log",
                                 "--stdin"], input=lines, text=True, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        spent += time.perf_counter() - started
        if result.returncode or not result.stderr.startswith(f"Logged {count} entries"):
            sys.exit(f"building a store of {entries:,} entries, batch {k + 1}: {result.stderr.strip()}")
        peak = max(peak, int(result.stderr.strip().splitlines()[-1]) / 1024)
    os.sync()
    return spent, batches, peak


def ensure_sqlite3():
    """The sqlite3 program, installed from Debian's packages when missing; None when it cannot be."""
    if not shutil.which("sqlite3") and shutil.which("apt-get"):
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "sqlite3"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return shutil.which("sqlite3")


def generate_sqlite(path, rows):
    """A WAL database of `rows` progress entries, as a tracker built on SQLite would keep them."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE entry (id TEXT PRIMARY KEY, book TEXT, page INTEGER, time TEXT, note TEXT)")
    db.executemany("INSERT INTO entry VALUES (?, ?, ?, ?, ?)",
                   ((uuid.uuid4().hex, f"book {i % 300}", i, iso(1_600_000_000 + i), None) for i in range(rows)))
    db.commit()
    db.close()


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
    busier one moment than the next weighs on every command alike, and their ratios hold; each round
    takes the commands in an order of its own (seeded), so that no command always follows the same
    one (a command after a heavier one is slower: `progress` after `show` of 1,000 entries took 0.4 ms
    more)."""
    times = {name: [] for name in commands}
    for round in range(runs):
        # Untimed: the first process after a heavy one (task next at 1,000,000 takes 2 GB) pays for it.
        subprocess.run(["true"])
        order = list(commands)
        random.Random(round).shuffle(order)
        for name in order:
            command, env = commands[name]
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


KINDS = ["generated", "real"]
FIXTURES = os.path.join(os.path.dirname(ROOT), "shared", "fixtures")
REAL_EXPORTS = [("goodreads", "goodreads-2024-24col.csv"), ("goodreads", "goodreads-legacy-31col.csv"),
                ("storygraph", "storygraph.csv")]


def import_real_exports(binary, env, store):
    """Imports the real Goodreads and StoryGraph exports of `../shared/fixtures/imports` into `store`,
    as a reader moving to bookclub does; returns each import's peak memory in MB (none when the
    fixtures are absent)."""
    peaks = {}
    for kind, name in REAL_EXPORTS:
        path = os.path.join(FIXTURES, "imports", name)
        if not os.path.exists(path):
            continue
        result = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "--store", store, "import", kind, path], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode:
            sys.exit(f"import {kind} {name}: {result.stderr.strip()}")
        peaks[f"import {kind} ({name})"] = int(result.stderr.strip().splitlines()[-1]) / 1024
    return peaks


def big_clippings(path, size):
    """A Kindle `My Clippings.txt` of `size` bytes: the real clippings of `../shared/fixtures/ereaders`
    (an old device, eleven languages, edge cases) repeated, each repetition's times a minute later,
    so that no two headers in a row of repetitions are the same bytes while the highlights stay the
    fixtures' own (a Kindle writes a highlight again each time it is changed)."""
    names = ["kindle-2012-my-clippings.txt", "kindle-multilang-2024.txt", "kindle-edge-no-page.txt"]
    text = "".join(open(os.path.join(FIXTURES, "ereaders", name), encoding="utf-8-sig").read() for name in names)
    clock = re.compile(r"(\d{1,2}):(\d\d):(\d\d)")
    written, k = 0, 0
    with open(path, "w", encoding="utf-8") as out:
        out.write("\ufeff")
        while written < size:
            chunk = clock.sub(lambda m: f"{m.group(1)}:{k % 60:02d}:{m.group(3)}", text)
            out.write(chunk)
            written += len(chunk.encode())
            k += 1
    return written + 3


def measure_kindle(binary, env, folder, size, runs=3):
    """`import kindle` of a clippings file of `size` bytes into a new store, `runs` times: MB/s and
    peak memory of each."""
    os.makedirs(folder)
    clippings = os.path.join(folder, "My Clippings.txt")
    length = big_clippings(clippings, size)
    os.sync()
    speeds, peaks = [], []
    for run in range(runs):
        store = os.path.join(folder, f"store-{run}", "store.json")
        started = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "--store", store, "import", "kindle", clippings],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        seconds = time.perf_counter() - started
        if result.returncode:
            sys.exit(f"import kindle: {result.stderr.strip()}")
        speeds.append(length / 1e6 / seconds)
        peaks.append(int(result.stderr.strip().splitlines()[-1]) / 1024)
    return {"bytes": length, "MB/s": statistics.median(speeds), "peak": max(peaks)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--books", type=int, help="a fixed number of books at every size (default: 300 per 100,000 entries)")
    parser.add_argument("--quick", action="store_true", help="1,000 and 10,000 entries only, smaller batches and files")
    parser.add_argument("--sync-only", action="store_true", help="only the sync figures")
    parser.add_argument("--clubs-only", action="store_true", help="only the shared-club figures")
    args = parser.parse_args()
    sizes = [1000, 10000] if args.quick else [int(s) for s in args.sizes.split(",")]
    began = time.perf_counter()
    binary = build()
    if args.clubs_only:
        work = tempfile.mkdtemp(prefix="bookclub-bench-")
        report_clubs(measure_clubs(binary, dict(os.environ, HOME=work, NO_COLOR="1", TZ="UTC"),
                                   os.path.join(work, "clubs"), args.runs), args.runs)
        shutil.rmtree(work)
        return
    if args.sync_only:
        work = tempfile.mkdtemp(prefix="bookclub-bench-")
        report_sync(measure_sync(binary, dict(os.environ, HOME=work, NO_COLOR="1", TZ="UTC"),
                                 os.path.join(work, "sync"), 100_000, args.runs), 100_000, args.runs)
        shutil.rmtree(work)
        return
    task = shutil.which("task")
    sqlite = ensure_sqlite3()
    work = tempfile.mkdtemp(prefix="bookclub-bench-")
    env = dict(os.environ, HOME=work, NO_COLOR="1", TZ="UTC")
    rows = []
    results = {}
    built = {}
    import_peaks = {}
    floor_file = os.path.join(work, "floor")
    for size in sizes:
        slow_runs = args.runs if size <= 10_000 else max(3, args.runs // 3)
        big = uuid.UUID(int=1).hex
        commands = {
            "true": ["true"],
            # The durable-append floor: a fresh process that appends 200 bytes to a file and syncs it.
            "floor (dd append + fsync)": ["dd", "if=/dev/zero", f"of={floor_file}", "bs=200", "count=1",
                                          "conv=notrunc,fsync", "oflag=append", "status=none"],
            "--version": [binary, "--version"],
        }
        for kind in KINDS:
            folder = os.path.join(work, f"{size}-{kind}")
            os.makedirs(folder)
            store = os.path.join(folder, "store.json")
            if kind == "generated":
                generate_store(folder, size, args.books)
            else:
                generate_store(folder, size, args.books, logged=True)
                import_peaks.update(import_real_exports(binary, env, store))
                built[size] = log_batches(binary, env, folder, size, args.books)
            if size == sizes[0]:
                # As built, for the largest size's round (its own round adds a journal line a write).
                shutil.copytree(folder, folder + "-again")
            base = [binary, "--store", store]
            if size == sizes[-1] and len(sizes) > 1:
                # The growth is taken in one round: rounds minutes apart see the machine differently
                # (the anchors moved by up to a tenth between them).
                # The copy takes the writes the largest store takes in the round, by id and by title: a
                # journal longer by 30 lines (40 KB) made a write 1.03 times as long, in 30 pairs of runs.
                small = [binary, "--store", os.path.join(work, f"{sizes[0]}-{kind}-again", "store.json"), "progress"]
                commands[again(kind, sizes[0])] = small + [uuid.UUID(int=2).hex, "+1"]
                commands[again(kind, sizes[0], "by title ")] = small + ["book 00002", "+1"]
            commands.update({
                f"progress [{kind}]": base + ["progress", uuid.UUID(int=2).hex, "+1"],
                f"progress by title [{kind}]": base + ["progress", "book 00002", "+1"],
                f"list [{kind}]": base + ["list"],
                f"show (1,000 entries) [{kind}]": base + ["show", big],
                f"stats (every entry) [{kind}]": base + ["stats", "--json"],
                f"export (every entry) [{kind}]": base + ["export"],
                f"stats --html (a year) [{kind}]": base + ["stats", "--year", "2020", "--html"],
            })
        commands = {name: (command, env) for name, command in commands.items()}
        if sqlite:
            database = os.path.join(work, f"entries-{size}.db")
            generate_sqlite(database, size)
            insert = "INSERT INTO entry VALUES (lower(hex(randomblob(16))), 'book 2', 1, datetime('now'), 'x')"
            commands["sqlite3 INSERT"] = ([sqlite, database, insert], env)
        if task:
            rc = generate_tasks(os.path.join(work, f"task-{size}"), size)
            task_env = dict(env, TASKRC=rc)
            commands["task add"] = ([task, "add", "benchmark"], task_env)
            commands["task next"] = ([task, "next"], task_env)
        # Commands of a few ms are timed in rounds of their own, as many at every size: a round that
        # also held Taskwarrior's 12 s at 1,000,000 tasks would leave the machine idle-cold for each
        # of them (a first write after a pause takes a millisecond more, sqlite3's as much as ours),
        # which a round of 1,000 entries never does.
        slow = {n for n in commands if n.startswith(("stats", "export", "task"))}
        measured = measure({n: c for n, c in commands.items() if n not in slow}, args.runs)
        measured.update(measure({n: c for n, c in commands.items() if n in slow}, slow_runs))
        for name in commands:
            results[(size, name)] = measured[name]
            rows.append((size, name, measured[name]))
        print(f"... {size} entries done ({time.perf_counter() - began:.0f} s)", file=sys.stderr)

    largest = sizes[-1]
    whole = measure_whole(binary, env, os.path.join(work, f"{largest}-real"))
    batch_lines = 10_000 if args.quick else 100_000
    batch = measure_batch(binary, env, os.path.join(work, "batch"), batch_lines)
    kindle = measure_kindle(binary, env, os.path.join(work, "kindle"), 30_000_000 if args.quick else 300_000_000)
    sync_ops = 10_000 if args.quick else 100_000
    synced = measure_sync(binary, env, os.path.join(work, "sync"), sync_ops, runs=args.runs)
    clubs = measure_clubs(binary, env, os.path.join(work, "clubs"), args.runs)

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"Machine: {cpu}, {os.cpu_count()} cores; release build as make install builds it (static, stripped)")
    print(f"Books: {args.books or '300 per 100,000 entries'}; [generated] stores as the generator writes them, [real] "
          "stores built by commands: the real exports imported, then batches of log --stdin by title")
    print(f"Runs: {args.runs}, interleaved; of stats, export and Taskwarrior, {max(3, args.runs // 3)} above 10,000 "
          "entries, in rounds of their own; times in ms, memory in MB\n")
    print("| entries | command | median ms | min–max ms | peak MB |")
    print("|---:|---|---:|---:|---:|")
    for size, name, (median, low, high, peak) in rows:
        label = f"{size:,}" if isinstance(size, int) else size
        print(f"| {label} | {name} | {median:.1f} | {low:.1f}–{high:.1f} | {peak:.1f} |")
    print(f"\nBatches: log --stdin of {batch_lines:,} lines over 300 books, each on a store of 1,000 entries, "
          f"{len(batch['by id'])} runs (median, min–max):")
    for name, label in BATCHES.items():
        times = batch[name]
        print(f"- {label}: {statistics.median(times) / 1000:.2f} s ({min(times) / 1000:.2f}–{max(times) / 1000:.2f}), "
              f"{statistics.median(times) * 1000 / batch_lines:.1f} µs a line")
    for label in AFTER:
        times, untouched = batch[label], batch[label + " (untouched)"]
        print(f"- progress {label}, each of {len(times)} writes the median of {AFTER_ROUNDS} rounds: median "
              f"{statistics.median(times):.1f} ms, max {max(times):.1f} ms; on a copy left alone, write for write "
              f"between them: {statistics.median(untouched):.1f} and {max(untouched):.1f} ms; the slowest "
              f"against the write at the same place: {slowest_against_untouched(batch, label):.2f}")
    if any(batches for _, batches, _ in built.values()):
        print("[real] stores: batches of lines by title, as many as needed of at most 100,000 lines:")
    for size, (seconds, batches, peak) in built.items():
        if batches:
            lines = size - min(1000, size)
            print(f"- {size:,} entries: {lines:,} lines in {batches} batch{'es' if batches > 1 else ''}, "
                  f"{seconds:.2f} s ({seconds * 1e6 / lines:.1f} µs a line), peak {peak:.1f} MB")
    print(f"\nimport kindle of a {kindle['bytes'] / 1e6:.0f} MB clippings file (the real ones repeated, times moved): "
          f"{kindle['MB/s']:.1f} MB/s (median of 3), peak {kindle['peak']:.1f} MB")
    for name, peak in import_peaks.items():
        print(f"- {name}: peak {peak:.1f} MB")
    print(f"\nThe other commands that read every entry, on the [real] store of {largest:,} entries "
          "(median of 3 runs; import json and sync init once):")
    for name, (seconds, peak) in whole.items():
        print(f"- {name}: {seconds:.2f} s, peak {peak:.1f} MB")

    report_sync(synced, sync_ops, args.runs, targets=False)
    report_clubs(clubs, args.runs, targets=False)

    print("\nTargets:")
    missed = []
    def check(label, value, limit, at_least=False):
        met = value >= limit if at_least else value <= limit
        if not met:
            missed.append(label)
        print(f"- {label}: {value:.2f} (target {'≥' if at_least else '≤'} {limit}) {'met' if met else 'MISSED'}")
    def median(size, name):
        return results[(size, name)][0]
    check("--version / true", median(sizes[0], "--version") / median(sizes[0], "true"), 2)
    for kind in KINDS:
        for size in sizes:
            if (size, "sqlite3 INSERT") in results:
                check(f"progress [{kind}] / sqlite3 INSERT at {size:,}",
                      median(size, f"progress [{kind}]") / median(size, "sqlite3 INSERT"), 0.8)
        for size in sizes:
            check(f"progress [{kind}] / the durable-append floor at {size:,}",
                  median(size, f"progress [{kind}]") / median(size, "floor (dd append + fsync)"), 2)
        if len(sizes) > 1:
            check(f"progress [{kind}] at {largest:,} / at {sizes[0]:,}, in one round",
                  median(largest, f"progress [{kind}]") / median(largest, again(kind, sizes[0])), 1.1)
        check(f"progress by title / by id [{kind}] at {largest:,}",
              median(largest, f"progress by title [{kind}]") / median(largest, f"progress [{kind}]"), 1.2)
        check(f"list [{kind}] at {largest:,} ({generate_books(largest, args.books):,} books"
              f"{' and the imports' if kind == 'real' else ''}), ms", median(largest, f"list [{kind}]"), 10)
        # Per entry where the entries outweigh starting the process.
        for name in ["stats (every entry)", "export (every entry)"] if largest >= 100_000 else []:
            check(f"{name.split()[0]} [{kind}] at {largest:,}: µs per entry",
                  median(largest, f"{name} [{kind}]") * 1000 / largest, 0.5)
        check(f"stats --html of a year [{kind}] at {largest:,}, ms", median(largest, f"stats --html (a year) [{kind}]"),
              300)
        if 10_000 in sizes and largest > 10_000:
            check(f"show (1,000 entries) [{kind}] at {largest:,} / at 10,000",
                  median(largest, f"show (1,000 entries) [{kind}]") / median(10_000, f"show (1,000 entries) [{kind}]"), 2)
    if (largest, "task next") in results:
        check(f"list / task next at {largest:,}", median(largest, "list [generated]") / median(largest, "task next"), 0.25)
    for name in BATCHES:
        check(f"log --stdin of {batch_lines:,} lines {name}, seconds", statistics.median(batch[name]) / 1000,
              2 * batch_lines / 100_000)
    for label in AFTER:
        check(f"the writes {label}, each over the same write on a copy left alone, at most",
              slowest_against_untouched(batch, label), 1.5)
    check("import kindle, MB/s", kindle["MB/s"], 50, at_least=True)
    check("import kindle, peak MB", kindle["peak"], 50)
    missed += report_sync(synced, sync_ops, args.runs, figures=False)
    missed += report_clubs(clubs, args.runs, figures=False)
    peak = max([v[3] for (s, n), v in results.items() if s == largest and not n.startswith(("task", "sqlite3"))]
               + list(import_peaks.values()) + [p for _, p in whole.values()] + [built[largest][2]])
    check(f"peak memory of any command at {largest:,} and of every import (MB)", peak, 50)
    print(f"\n{len(missed)} target{'' if len(missed) == 1 else 's'} missed; the suite took "
          f"{(time.perf_counter() - began) / 60:.1f} minutes")
    shutil.rmtree(work)


def report_sync(synced, operations, runs, figures=True, targets=True):
    if figures:
        print(f"\nSync, on a store of 10,000 entries, nothing new in the folder (median ms over {runs} interleaved runs):")
        for name in ["list", "progress"]:
            print(f"- {name}: {synced[name][0]:.1f} without sync, {synced[name + ' (syncing)'][0]:.1f} with")
        print(f"- sync init applying {operations:,} operations of another machine: {synced['apply'] / 1000:.2f} s")
        print(f"- sync applying 100 new entries of another machine to it: {synced['news']:.1f} ms")
    missed = []
    if targets:
        for name in ["list", "progress"]:
            value = synced[name + " (syncing)"][0] - synced[name][0]
            print(f"- {name} with sync on and nothing new, ms more than without: {value:.2f} (target ≤ 1) "
                  f"{'met' if value <= 1 else 'MISSED'}")
            if value > 1:
                missed.append(f"{name} with sync on")
        value = synced["apply"] / 1000
        limit = 2 * operations / 100_000
        print(f"- sync applying {operations:,} operations, seconds: {value:.2f} (target ≤ {limit}) "
              f"{'met' if value <= limit else 'MISSED'}")
        if value > limit:
            missed.append("sync applying")
    return missed


def measure_sync(binary, env, folder, operations, runs):
    """`list` and `progress` on a store of 10,000 entries, alone and joined to a sync folder where
    nothing is new; then `sync` on a new store that joins a folder holding `operations` operations of
    another machine (300 books, the rest progress entries)."""
    plain, joined, shared = (os.path.join(folder, name) for name in ["plain", "joined", "shared"])
    for path in [plain, joined]:
        os.makedirs(path)
        generate_store(path, 10_000, 300)
    def bookclub(path, *arguments):
        return [binary, "--store", os.path.join(path, "store.json"), "--settings", os.path.join(path, "settings.json"),
                *arguments]
    subprocess.run(bookclub(joined, "sync", "init", shared), env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    book = uuid.UUID(int=2).hex
    commands = {
        "list": (bookclub(plain, "list"), env),
        "list (syncing)": (bookclub(joined, "list"), env),
        "progress": (bookclub(plain, "progress", book, "+1"), env),
        "progress (syncing)": (bookclub(joined, "progress", book, "+1"), env),
    }
    result = measure(commands, runs)

    # Another machine's log: 300 books, then progress entries on them; a new store joins it.
    other = "f" * 32
    big = os.path.join(folder, "big")
    os.makedirs(os.path.join(big, "devices"))
    compact = dict(sort_keys=True, separators=(",", ":"))
    start = 1_764_000_000_000
    with open(os.path.join(big, "devices", other + ".jsonl"), "w") as out:
        readings = {}
        for n in range(1, operations + 1):
            line = {"v": 1, "device": other, "n": n, "t": start + n, "c": 0}
            b = n % 300
            book_id = uuid.UUID(int=(1 << 96) + b).hex
            if n <= 300:
                line.update(op="book.add", book={"id": book_id, "title": f"Synced {b}", "tags": [],
                                                  "added": iso(start // 1000)})
            elif n <= 600:
                readings[b] = str(uuid.UUID(int=(1 << 97) + b)).upper()
                line.update(op="reading.put", book=book_id, reading={"id": readings[b], "started": iso(start // 1000)})
            else:
                line.update(op="entry.put", book=book_id, reading=readings[b],
                            entry={"id": str(uuid.uuid4()).upper(), "progress": min(1, n / operations),
                                   "time": iso(start // 1000 + n)})
            out.write(json.dumps(line, **compact) + "\n")
    fresh = os.path.join(folder, "fresh")
    os.makedirs(fresh)
    started = time.perf_counter()
    subprocess.run(bookclub(fresh, "sync", "init", big), env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    result["apply"] = (time.perf_counter() - started) * 1000
    # 100 more entries: only what the log grew by is read and applied.
    with open(os.path.join(big, "devices", other + ".jsonl"), "a") as out:
        for n in range(operations + 1, operations + 101):
            line = {"v": 1, "device": other, "n": n, "t": start + n, "c": 0, "op": "entry.put",
                    "book": uuid.UUID(int=(1 << 96) + n % 300).hex, "reading": readings[n % 300],
                    "entry": {"id": str(uuid.uuid4()).upper(), "progress": 1, "time": iso(start // 1000 + n)}}
            out.write(json.dumps(line, **compact) + "\n")
    started = time.perf_counter()
    subprocess.run(bookclub(fresh, "sync"), env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result["news"] = (time.perf_counter() - started) * 1000
    return result


def measure_clubs(binary, env, folder, runs, posts=100):
    """A shared club as readers run it: a founder's store and a member's, each of 10,000 entries over
    300 books, the member admitted and one of their books linked to the club's; beside them a store of
    the same entries in no club. Times `list` and `progress` (on a book the club does not read) with and
    without the club, `progress` on the linked book (which publishes: one signature), `club sync` with
    nothing new, and `club sync` verifying `posts` new batches of the founder's (one seal each)."""
    env = dict(env, BOOKCLUB_NO_HOOKS="1")
    homes = {name: os.path.join(folder, name) for name in ["plain", "member", "founder"]}
    for path in homes.values():
        os.makedirs(path)
        generate_store(path, 10_000, 300)
    shared = os.path.join(folder, "shared")
    def bookclub(name, *arguments, check=True):
        path = homes[name]
        command = [binary, "--store", os.path.join(path, "store.json"), "--settings",
                   os.path.join(path, "settings.json"), *arguments]
        if check:
            return subprocess.run(command, env=dict(env, USER=name), check=True, capture_output=True, text=True).stdout
        return command
    linked = uuid.UUID(int=2).hex
    bookclub("founder", "club", "add", "Bench Club")
    bookclub("founder", "club", "meeting", "bench", "--date", "in 30 days", "--book", linked, "--target", "50%")
    founder = bookclub("founder", "club", "share", "bench", shared).strip()
    bookclub("member", "club", "join", shared, "--founder", founder)
    bookclub("founder", "club", "admit", "bench", "member")
    bookclub("member", "club", "link", "bench", linked)
    other = uuid.UUID(int=3).hex
    menv = dict(env, USER="member")
    commands = {
        "list": (bookclub("plain", "list", check=False), env),
        "list (in a club)": (bookclub("member", "list", check=False), menv),
        "progress": (bookclub("plain", "progress", other, "+1", check=False), env),
        "progress (in a club)": (bookclub("member", "progress", other, "+1", check=False), menv),
        "progress (linked: publishes)": (bookclub("member", "progress", linked, "+1", check=False), menv),
        "club sync (nothing new)": (bookclub("member", "club", "sync", check=False), menv),
    }
    result = measure(commands, runs)
    seals = []
    for _ in range(3):
        for n in range(posts):
            bookclub("founder", "club", "post", "bench", f"post {n}", "--at", "1")
        started = time.perf_counter()
        bookclub("member", "club", "sync")
        seals.append((time.perf_counter() - started) * 1000)
    result["sync news"] = (statistics.median(seals), posts)
    return result


def report_clubs(clubs, runs, figures=True, targets=True):
    def more(name):
        return clubs[name + " (in a club)"][0] - clubs[name][0]
    if figures:
        print(f"\nShared clubs, on stores of 10,000 entries (median ms over {runs} interleaved runs):")
        for name in ["list", "progress"]:
            print(f"- {name}: {clubs[name][0]:.1f} in no club, {clubs[name + ' (in a club)'][0]:.1f} in one")
        print(f"- progress on the linked book, published and signed: {clubs['progress (linked: publishes)'][0]:.1f}")
        print(f"- club sync with nothing new: {clubs['club sync (nothing new)'][0]:.1f}")
        median, posts = clubs["sync news"]
        print(f"- club sync verifying {posts} new batches (one seal each): {median:.0f} ({median / posts:.1f} a seal)")
    missed = []
    if targets:
        for name in ["list", "progress"]:
            value = more(name)
            print(f"- {name} in a club with nothing new, ms more than in none: {value:.2f} (target ≤ 1) "
                  f"{'met' if value <= 1 else 'MISSED'}")
            if value > 1:
                missed.append(f"{name} in a club")
    return missed


def generate_books(entries, books=None):
    return books or max(3, entries * 300 // 100_000)


BATCHES = {
    "by id": "by id, without times (pages going up book by book)",
    "by title": "by title, each with a time (Z or an offset, some backdated, books of an export listed whole), "
                "one in seven with a note",
}


def measure_whole(binary, env, folder, runs=3):
    """The commands that read every entry and are not timed above, on the store in `folder`: `export
    --output` in each format and `doctor`, `runs` times each; once each, `import json` of the export
    into an empty store and `sync init` into a new folder on a copy of the store. Returns each one's
    median seconds and largest peak MB."""
    store = os.path.join(folder, "store.json")
    out = os.path.join(os.path.dirname(folder), "whole-output")

    def timed(command):
        result = subprocess.run(["/usr/bin/time", "-f", "%e %M", *command], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        # doctor exits 1 when it finds a problem: reported, not a failure of the suite.
        if result.returncode and not (command[-1] == "doctor" and result.returncode == 1):
            sys.exit(f"{' '.join(command[1:])}: {result.stderr.strip()}")
        seconds, kilobytes = result.stderr.strip().splitlines()[-1].split()
        return float(seconds), int(kilobytes) / 1024

    commands = {f"export --output (--format {f})": [binary, "--store", store, "export", "--format", f, "--output", out]
                for f in ["json", "csv", "markdown"]}
    commands["doctor"] = [binary, "--store", store, "doctor"]
    figures = {}
    for name, command in commands.items():
        runs_of = [timed(command) for _ in range(runs)]
        figures[name] = (statistics.median(r[0] for r in runs_of), max(r[1] for r in runs_of))
    # A backup put back: the JSON export imported into an empty store, once.
    subprocess.run([binary, "--store", store, "export", "--output", out], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    restored = os.path.join(os.path.dirname(folder), "whole-restored")
    figures["import json (the export, into an empty store, once)"] = timed(
        [binary, "--store", os.path.join(restored, "store.json"), "import", "json", out])
    shutil.rmtree(restored)
    copy = os.path.join(os.path.dirname(folder), "whole-sync")
    shutil.copytree(folder, os.path.join(copy, "store"))
    # Settings of its own, as the sync figures have theirs: the suite's home keeps no sync folder.
    figures["sync init (a new folder, once)"] = timed(
        [binary, "--store", os.path.join(copy, "store", "store.json"), "--settings", os.path.join(copy, "settings.json"),
         "sync", "init", os.path.join(copy, "shared"), "--name", "bench"])
    shutil.rmtree(copy)
    os.remove(out)
    return figures


def again(kind, size, how=""):
    """The name of `progress` on the store of `size` entries timed again in the largest size's round."""
    return f"progress {how}[{kind}] on the store of {size:,} again"


AFTER = ["after the batch", "after an import of 1,000 books"]


def slowest_against_untouched(batch, label):
    """The greatest ratio of a write after the change to the write at the same place on the copy the
    change left alone (`writes_after`)."""
    return max(a / b for a, b in zip(batch[label], batch[label + " (untouched)"]))


def measure_batch(binary, env, folder, lines):
    """`log --stdin` of `lines` lines over 300 books, by id without times and by title as a cron job
    or an e-reader export writes them (see `realistic_lines`), each three times, on a new copy of a
    store of 1,000 entries; and the 30 `progress` writes after a batch by id, and after an import of
    1,000 books, each timed alone (`writes_after`)."""
    base = os.path.join(folder, "base")
    os.makedirs(base)
    generate_store(base, 1000, 300)
    copies = itertools.count()

    def copy():
        path = os.path.join(folder, f"copy-{next(copies)}")
        shutil.copytree(base, path)
        return path

    def log(path, events):
        started = time.perf_counter()
        subprocess.run([binary, "--store", os.path.join(path, "store.json"), "log", "--stdin"], input=events,
                       text=True, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return (time.perf_counter() - started) * 1000

    # Pages go up book by book, as a reading log would.
    by_id = "".join(json.dumps({"book": uuid.UUID(int=1 + i % 300).hex, "page": 20_000 + i // 300 + 1}) + "\n"
                    for i in range(lines))
    by_title, _ = realistic_lines(300, lines, BATCH_START, BATCH_END, pages={b: 20_000 for b in range(300)})
    result = {"by id": [log(copy(), by_id) for _ in range(3)], "by title": []}
    for _ in range(3):
        path = copy()
        os.sync()
        result["by title"].append(log(path, by_title))
    export = os.path.join(folder, "goodreads.csv")
    with open(export, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["Book Id", "Title", "Author", "ISBN13", "My Rating", "Number of Pages", "Date Read",
                         "Date Added", "Exclusive Shelf", "Read Count"])
        for i in range(1000):
            writer.writerow([str(90_000 + i), f"Imported {i}", "Someone", "", "4", "300", "2024/05/01",
                             "2024/01/01", "read", "1"])

    def import_books(path):
        subprocess.run([binary, "--store", os.path.join(path, "store.json"), "import", "goodreads", export], env=env,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    result.update(writes_after(binary, env, copy, {
        "after the batch": lambda path: log(path, by_id),
        "after an import of 1,000 books": import_books}))
    return result


# The rounds of the writes after a change: each place's time is the median of as many.
AFTER_ROUNDS = 5


def writes_after(binary, env, copy, changes, rounds=AFTER_ROUNDS, count=30):
    """The `count` `progress` writes after each of `changes`, against the same writes on a copy of the
    store that the change left alone, each first write made after the same change on a copy of its
    own: on this machine the first process after any large one is slower, whatever it does (1.1 to
    1.5 times the next, after a process of another program that touches 300 MB on two cores), and
    what is asked is what the change leaves in the store. The two copies' writes alternate, place by
    place, so that a busy moment of the machine falls on both. Both copies start with three writes (a new copy's first one builds what
    a generated store lacks), and the untouched one with one more, as the change's own undo record,
    so that both set their undo log aside at the same place. Each place is the median of `rounds`."""
    def write(path):
        started = time.perf_counter()
        subprocess.run([binary, "--store", os.path.join(path, "store.json"), "progress", uuid.UUID(int=2).hex, "+1"],
                       env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return (time.perf_counter() - started) * 1000

    result = {}
    for label, change in changes.items():
        changed, untouched = [], []
        for _ in range(rounds):
            path, other = copy(), copy()
            for _ in range(3):
                write(path)
            for _ in range(4):
                write(other)
            change(path)
            pairs = []
            for place in range(count):
                # Each first write follows the change made on a copy of its own; then the two
                # copies' writes alternate, so that a moment of the machine falls on both alike.
                if place == 0:
                    change(copy())
                first = write(path)
                if place == 0:
                    change(copy())
                pairs.append((first, write(other)))
            changed.append([a for a, _ in pairs])
            untouched.append([b for _, b in pairs])
        result[label] = [statistics.median(run[i] for run in changed) for i in range(count)]
        result[label + " (untouched)"] = [statistics.median(run[i] for run in untouched) for i in range(count)]
    return result


if __name__ == "__main__":
    main()
