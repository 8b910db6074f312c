#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `ssh-keygen`, which every machine with OpenSSH has, as a club signs and verifies its members' seals
/// (`-Y sign`, `-Y verify`, as git signs commits with an SSH key) and makes a member's key.
public struct SSHKeygen {
    let runner: ProgramRunner
    let environment: [String: String]
    let fileSystem: FileSystem

    public init(runner: ProgramRunner, environment: [String: String], fileSystem: FileSystem) {
        (self.runner, self.fileSystem) = (runner, fileSystem)
        // Never a prompt for a passphrase from a program that is not a terminal: a cron job fails at once.
        var environment = environment
        environment["SSH_ASKPASS_REQUIRE"] = "never"
        self.environment = environment
    }

    /// Whether `ssh-keygen` is there; without it a club shows nothing of the others and publishes nothing.
    public var isAvailable: Bool { runner.find("ssh-keygen", environment) != nil }

    /// What to say when it is not.
    public static let missing = "ssh-keygen is not installed: install OpenSSH's client (apt install openssh-client)"

    /// Runs `ssh-keygen`, its standard input `/dev/null` unless given. Without a terminal (cron) a key
    /// that needs a passphrase reads an empty one there and fails at once. On a terminal, signing stays
    /// in the terminal's process group, where ssh-keygen may ask for the passphrase (a process group
    /// of its own would be stopped by the terminal the moment it asked); anything else runs in a group
    /// of its own, stopped whole at its time-out.
    private func run(
        _ arguments: [String], input: Program.Input = .null, showsErrors: Bool, mayAsk: Bool = false
    ) throws -> ProgramResult {
        guard isAvailable else { throw BookClubError.unavailable(Self.missing) }
        return try runner.run(
            Program(
                "ssh-keygen", arguments, environment: environment, input: input, output: .capture(limit: 64 * 1024),
                showsErrors: showsErrors, timeout: mayAsk ? 300 : 60, ownProcessGroup: !mayAsk))
    }

    /// Makes an Ed25519 key without a passphrase at `path` (and `path.pub`), for a member who has none.
    func makeKey(at path: String) throws {
        let parent = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !parent.isEmpty { try fileSystem.makeFolder(parent) }
        let result = try run(
            ["-q", "-t", "ed25519", "-N", "", "-C", "bookclub club key", "-f", path], showsErrors: true)
        guard result.ending == .exited(0) else {
            throw BookClubError.unavailable(
                "ssh-keygen could not make a key at \(path): it \(result.ending.problem ?? "failed")")
        }
    }

    /// The public key of the key at `path` (a private key, or a public one whose private key is in
    /// `ssh-agent`): `TYPE BASE64`, its comment left out (a comment is the key owner's text, and
    /// may hold anything).
    func publicKey(of path: String) throws -> String {
        func key(_ text: String) -> (type: String, blob: [UInt8], comment: String?)? {
            SSHPublicKey.parse(text.trimmed.split(separator: " ", maxSplits: 2).prefix(2).joined(separator: " "))
        }
        let publicPath = path.hasSuffix(".pub") ? path : path + ".pub"
        if let data = try fileSystem.read(publicPath), let line = String(data: data, encoding: .utf8),
            let key = key(line)
        {
            return key.type + " " + Data(key.blob).base64EncodedString()
        }
        let result = try run(["-y", "-f", path], showsErrors: true)
        guard result.ending == .exited(0), let line = String(data: result.output, encoding: .utf8),
            let key = key(line)
        else {
            throw BookClubError.unavailable(
                "ssh-keygen could not read the public key of \(path) (a key with a passphrase needs \(publicPath) beside it, and ssh-agent)"
            )
        }
        return key.type + " " + Data(key.blob).base64EncodedString()
    }

    /// Signs `message` with the key at `keyPath` under the club's namespace; the armored signature.
    /// The message is handed over in `scratch` (a file of the reader's own).
    func sign(_ message: Data, keyPath: String, namespace: String, scratch: String) throws -> String {
        try fileSystem.replace(scratch, message)
        _ = fileSystem.remove(scratch + ".sig")
        defer {
            _ = fileSystem.remove(scratch)
            _ = fileSystem.remove(scratch + ".sig")
        }
        let result = try run(
            ["-Y", "sign", "-q", "-f", keyPath, "-n", namespace, scratch], showsErrors: true, mayAsk: true)
        guard result.ending == .exited(0), let data = try fileSystem.read(scratch + ".sig"),
            let signature = String(data: data, encoding: .utf8), signature.hasPrefix("-----BEGIN SSH SIGNATURE-----")
        else {
            throw BookClubError.unavailable(
                "ssh-keygen could not sign with \(keyPath): it \(result.ending.problem ?? "wrote no signature") (a key with a passphrase must be in ssh-agent)"
            )
        }
        return signature.trimmed
    }

    /// Whether `signature` is a signature of `message` by `key` (whose fingerprint is `principal`)
    /// under `namespace`. The allowed-signers file and the signature are written to `scratch`.
    func verify(_ message: Data, signature: String, key: String, principal: String, namespace: String, scratch: String)
        throws -> Bool
    {
        let allowed = "\(principal) namespaces=\"\(namespace)\" \(key)\n"
        try fileSystem.replace(scratch + ".allowed", Data(utf8: allowed))
        try fileSystem.replace(scratch + ".sig", Data(utf8: signature + "\n"))
        defer {
            _ = fileSystem.remove(scratch + ".allowed")
            _ = fileSystem.remove(scratch + ".sig")
        }
        let result = try run(
            ["-Y", "verify", "-f", scratch + ".allowed", "-I", principal, "-n", namespace, "-s", scratch + ".sig"],
            input: .bytes(message), showsErrors: false)
        return result.ending == .exited(0)
    }
}
