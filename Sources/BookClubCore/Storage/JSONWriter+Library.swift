#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The library's values as the store's files write them, by hand: JSONEncoder's first use in a
/// process costs more than a whole `progress`.
extension JSONWriter {
    /// A book as an export writes it: each reading with every entry.
    mutating func book(_ book: Book) {
        bookObject(StoredBook(book)) { w in w.array(book.readings) { w, reading in w.reading(reading) } }
    }

    /// A book as the snapshot and the journal keep it: each reading with its latest entry.
    mutating func storedBook(_ book: StoredBook) {
        bookObject(book) { w in w.array(book.readings) { w, reading in w.storedReading(reading) } }
    }

    /// A book's fields, in the order of their names, its readings written by `readings`.
    private mutating func bookObject(_ book: StoredBook, readings: (inout JSONWriter) -> Void) {
        object { w in
            w.field("added", book.added)
            w.field("author", book.author)
            if let contributors = book.contributors {
                w.field("contributors")
                w.array(contributors) { w, contributor in
                    w.object { w in
                        w.field("name", contributor.name)
                        w.field("role", contributor.role)
                    }
                }
            }
            w.field("coverName", book.coverName)
            if let details = book.details {
                w.field("details")
                w.object { w in
                    for key in details.keys.sorted() {
                        w.escapedField(key)
                        w.array(details[key]!) { w, value in w.string(value) }
                    }
                }
            }
            w.field("format", book.format?.rawValue)
            w.field("historyTail", book.historyTail)
            w.field("id", book.id)
            w.field("isbn", book.isbn)
            w.field("length", book.length)
            w.field("pages", book.pages)
            w.field("privateNotes", book.privateNotes)
            w.field("rating", book.rating)
            w.field("readings")
            readings(&w)
            w.field("review", book.review)
            w.field("tags")
            w.array(book.tags) { w, tag in w.string(tag) }
            w.field("title", book.title)
        }
    }

    private mutating func storedReading(_ reading: StoredBook.StoredReading) {
        readingObject(
            id: reading.id, ending: reading.ending, format: reading.format, highlights: reading.highlights,
            resumed: reading.resumed, started: reading.started, withdrawn: reading.withdrawn
        ) { w in
            if let latest = reading.latest {
                w.field("latest")
                w.entry(latest)
            }
        }
    }

    private mutating func reading(_ reading: Reading) {
        readingObject(
            id: reading.id, ending: reading.ending, format: reading.format, highlights: reading.highlights,
            resumed: reading.resumed, started: reading.started
        ) { w in
            w.field("progress")
            w.object { w in
                w.field("entries")
                w.array(reading.progress.entries) { w, entry in w.entry(entry) }
            }
        }
    }

    /// A reading's fields, its entries (`latest`, or `progress`) written by `entries` in their place.
    private mutating func readingObject(
        id: UUID, ending: Ending?, format: Book.Format?, highlights: [Highlight]?, resumed: [Ending]?,
        started: Date?, withdrawn: [UUID]? = nil, entries: (inout JSONWriter) -> Void
    ) {
        object { w in
            if let ending {
                w.field("ending")
                w.ending(ending)
            }
            w.field("format", format?.rawValue)
            if let highlights {
                w.field("highlights")
                w.array(highlights) { w, highlight in w.highlight(highlight) }
            }
            w.field("id")
            w.uuid(id)
            entries(&w)
            if let resumed {
                w.field("resumed")
                w.array(resumed) { w, ending in w.ending(ending) }
            }
            w.field("started", started)
            if let withdrawn {
                w.field("withdrawn")
                w.array(withdrawn) { w, id in w.uuid(id) }
            }
        }
    }

    private mutating func highlight(_ highlight: Highlight) {
        object { w in
            w.field("chapter", highlight.chapter)
            w.field("id", highlight.id)
            w.field("location", highlight.location)
            w.field("note", highlight.note)
            w.field("page", highlight.page)
            w.field("source", highlight.source.rawValue)
            w.field("text", highlight.text)
            w.field("time", highlight.time)
        }
    }

    private mutating func ending(_ ending: Ending) {
        object { w in
            w.field("date", ending.date)
            w.field("note", ending.note)
            w.field("outcome", ending.outcome.rawValue)
            w.field("rating", ending.rating)
            w.field("review", ending.review)
        }
    }

    /// A record of the undo log, compact, the clubs it restores (if any) encoded already, and last the
    /// place its line begins in the log (read from the end: `LibraryStorage.recordCount`).
    mutating func change(_ change: UndoRecord, clubs: Data?, at place: Int) {
        object { w in
            w.field("after", change.after)
            if let before = change.before {
                w.field("before")
                w.object { w in
                    w.field("absent")
                    w.array(before.absent) { w, id in w.string(id) }
                    w.field("books")
                    w.array(before.books) { w, book in w.storedBook(book) }
                    if let clubs {
                        w.field("clubs")
                        w.bytes += clubs
                    }
                    w.field("historyLength", before.historyLength)
                    w.field("state", before.state)
                }
            }
            w.field("command", change.command)
            w.field("summary", change.summary)
            w.field("time", change.time)
            w.field("at", place)
        }
    }

    /// A line of the history, `{"book":…,"entry":{…},"reading":…}`, and its line break.
    mutating func historyLine(book: Book.ID, reading: UUID, entry: ReadingProgress.Entry, previous: Int?) {
        object { w in
            w.field("book", book)
            w.field("entry")
            w.entry(entry)
            w.field("previous", previous)
            w.field("reading")
            w.uuid(reading)
        }
        bytes.append(0x0A)
    }

    mutating func entry(_ entry: ReadingProgress.Entry) {
        // The fields of `JSONWriter.entryFields`, by their place there.
        object { w in
            w.entryField(0)
            w.uuid(entry.id)
            w.entryField(1, entry.listened)
            w.entryField(2, entry.minutes)
            if let note = entry.note {
                w.entryField(3)
                w.string(note)
            }
            w.entryField(4, entry.page)
            w.entryField(5)
            w.number(entry.progress)
            w.entryField(6)
            w.date(entry.time)
        }
    }
}
