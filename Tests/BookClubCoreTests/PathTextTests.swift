import Foundation
import Testing

@testable import BookClubCore

/// A path splits at its last `/`, whatever script its names are in, as Foundation's `NSString` splits
/// it (which leaves a trailing `/` aside, so those are checked by hand).
@Suite struct PathTextTests {
    @Test(arguments: [
        "/home/あや/本 📚/store.json", "/Users/יעל/ספרים/store.json", "store.json", "/store.json", "./a/../b/c.json",
        "/a/e\u{301}/c", "ノルウェイの森/森.txt", "/a/b/c",
    ])
    func pathsSplitAtTheirLastSlash(_ path: String) {
        #expect(path.lastPathComponent == (path as NSString).lastPathComponent)
        #expect(path.parentPath == (path as NSString).deletingLastPathComponent)
    }

    @Test func theRootAndATrailingSlash() {
        #expect("/".parentPath == "/")
        #expect("/".lastPathComponent == "")
        #expect("a/b/".lastPathComponent == "")
        #expect("a/b/".parentPath == "a/b")
        #expect("".parentPath == "")
        // The system splits a path at every `/`, even one a combining mark follows (which `NSString`,
        // going by characters, does not).
        #expect("a/\u{301}x".lastPathComponent == "\u{301}x")
        #expect("a/\u{301}x".parentPath == "a")
    }
}
