import Foundation
import Testing

@testable import BookClubCore

/// SHA-256 against the test vectors of FIPS 180-4's examples, and an OpenSSH key's fingerprint against
/// what `ssh-keygen` prints for it.
@Suite struct SHA256Tests {
    static func hex(_ digest: [UInt8]) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func theStandardsVectors(_ message: String, _ digest: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
        #expect(Self.hex(SHA256.hash(Data(message.utf8))) == digest, "as Data")
    }

    @Test func aMillionAs() {
        #expect(
            Self.hex(SHA256.hash(Data(repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Messages that end where the padding takes one more block, or just does not (as `sha256sum`
    /// gives them).
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
    ])
    func messagesAtTheEdgeOfABlock(_ count: Int, _ digest: String) {
        #expect(Self.hex(SHA256.hash(repeatElement(UInt8(ascii: "a"), count: count))) == digest)
    }

    /// Runs `ssh-keygen` with `arguments`; its standard output.
    static func sshKeygen(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try #require(
                ExternalTool.path("ssh-keygen"), "ssh-keygen is not installed: apt-get install openssh-client"))
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "ssh-keygen \(arguments.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: ExternalTool.available("ssh-keygen")))
    func aNewKeysFingerprintIsWhatSSHKeygenPrints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bookclub-ssh-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try Self.sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", "reader@laptop", "-f", folder + "/k"])
        let line = try String(contentsOfFile: folder + "/k.pub", encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        let key = try #require(SSHPublicKey.parse(line))
        #expect(key.type == "ssh-ed25519")
        #expect(key.comment == "reader@laptop")
        #expect(key.blob.count == 51, "the type's name and 32 bytes of key, each with its length")
        // `256 SHA256:… reader@laptop (ED25519)`
        let printed = try Self.sshKeygen(["-lf", folder + "/k.pub"]).split(separator: " ")
        #expect(printed.count >= 2)
        #expect(SSHPublicKey.fingerprint(blob: key.blob) == String(printed[1]))
        #expect(!SSHPublicKey.fingerprint(blob: key.blob).contains("="))
    }

    /// A length-prefixed string, as the blob of a key holds its fields.
    static func field(_ bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(bytes.count)
        return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) } + bytes
    }

    static func line(_ type: String, blob: [UInt8], comment: String? = nil) -> String {
        type + " " + Data(blob).base64EncodedString() + (comment.map { " " + $0 } ?? "")
    }

    @Test func everyTypeReadsWithItsComment() throws {
        for type in SSHPublicKey.types.sorted() {
            let blob = Self.field(Array(type.utf8)) + Self.field(Array(repeating: 7, count: 32))
            let key = try #require(SSHPublicKey.parse(Self.line(type, blob: blob, comment: "a comment, of words")))
            #expect(key.type == type && key.blob == blob && key.comment == "a comment, of words")
            #expect(SSHPublicKey.parse(Self.line(type, blob: blob))?.comment == nil)
            #expect(SSHPublicKey.parse("  " + Self.line(type, blob: blob, comment: "x") + "  ")?.comment == "x")
        }
    }

    @Test func aMalformedLineIsNoKey() {
        let ed25519 = Self.field(Array("ssh-ed25519".utf8)) + Self.field(Array(repeating: 1, count: 32))
        let good = Self.line("ssh-ed25519", blob: ed25519)
        #expect(SSHPublicKey.parse(good) != nil)
        let bad = [
            "",
            "   ",
            "ssh-ed25519",
            "ssh-ed25519 ",
            Self.line("ssh-dss", blob: Self.field(Array("ssh-dss".utf8))),
            Self.line("SSH-ED25519", blob: ed25519),
            #"from="10.0.0.1" "# + good,
            "ssh-ed25519 AAAA!AAA",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI",
            Self.line("ssh-rsa", blob: ed25519),
            Self.line("ssh-ed25519", blob: Self.field(Array("ssh-ed2551".utf8))),
            Self.line("ssh-ed25519", blob: [0, 0, 0]),
            Self.line("ssh-ed25519", blob: [0xFF, 0xFF, 0xFF, 0xFF] + Array("ssh-ed25519".utf8)),
            Self.line("ssh-ed25519", blob: [0, 0, 0, 12] + Array("ssh-ed25519".utf8)),
            good + " a\u{1B}[2Jcomment",
            good + "\n",
            "ssh-ed25519\t" + Data(ed25519).base64EncodedString(),
            good + " \u{7F}",
            good + " \u{85}",
            good + " " + String(repeating: "x", count: SSHPublicKey.maximumLineLength),
        ]
        for line in bad {
            #expect(SSHPublicKey.parse(line) == nil, "\(line.debugDescription)")
        }
    }
}
