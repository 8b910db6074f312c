#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// SHA-256 as FIPS 180-4 gives it (sections 5.1.1, 6.2), one 64-byte block at a time: written to be
/// read against the standard, not to be fast.
enum SHA256 {
    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (4.2.2).
    private static let constants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// The first 32 bits of the fractional parts of the square roots of the first 8 primes (5.3.3).
    private static let initialHash: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]

    /// The 32-byte digest of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        // Padding (5.1.1): a 1 bit, zeros up to 56 bytes into the last block, the length in bits in 8 bytes.
        var message = Array(bytes)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }

        var hash = initialHash
        var schedule = [UInt32](repeating: 0, count: 64)
        for block in stride(from: 0, to: message.count, by: 64) {
            // The message schedule (6.2.2, step 1).
            for t in 0..<16 {
                let at = block + 4 * t
                schedule[t] =
                    UInt32(message[at]) << 24 | UInt32(message[at + 1]) << 16 | UInt32(message[at + 2]) << 8
                    | UInt32(message[at + 3])
            }
            for t in 16..<64 {
                schedule[t] =
                    smallSigma1(schedule[t - 2]) &+ schedule[t - 7] &+ smallSigma0(schedule[t - 15])
                    &+ schedule[t - 16]
            }
            // The working variables (step 2), the 64 rounds (step 3), the new hash value (step 4).
            var a = hash[0]
            var b = hash[1]
            var c = hash[2]
            var d = hash[3]
            var e = hash[4]
            var f = hash[5]
            var g = hash[6]
            var h = hash[7]
            for t in 0..<64 {
                let t1 = h &+ bigSigma1(e) &+ choose(e, f, g) &+ constants[t] &+ schedule[t]
                let t2 = bigSigma0(a) &+ majority(a, b, c)
                h = g
                g = f
                f = e
                e = d &+ t1
                d = c
                c = b
                b = a
                a = t1 &+ t2
            }
            hash[0] &+= a
            hash[1] &+= b
            hash[2] &+= c
            hash[3] &+= d
            hash[4] &+= e
            hash[5] &+= f
            hash[6] &+= g
            hash[7] &+= h
        }
        // The digest: the eight words, each most significant byte first.
        var digest: [UInt8] = []
        for word in hash {
            for shift in [24, 16, 8, 0] as [UInt32] { digest.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return digest
    }

    // The functions of 4.1.2.

    private static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 { x >> n | x << (32 - n) }

    private static func choose(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) ^ (~x & z) }

    private static func majority(_ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 { (x & y) ^ (x & z) ^ (y & z) }

    private static func bigSigma0(_ x: UInt32) -> UInt32 { rotateRight(x, 2) ^ rotateRight(x, 13) ^ rotateRight(x, 22) }

    private static func bigSigma1(_ x: UInt32) -> UInt32 { rotateRight(x, 6) ^ rotateRight(x, 11) ^ rotateRight(x, 25) }

    private static func smallSigma0(_ x: UInt32) -> UInt32 { rotateRight(x, 7) ^ rotateRight(x, 18) ^ x >> 3 }

    private static func smallSigma1(_ x: UInt32) -> UInt32 { rotateRight(x, 17) ^ rotateRight(x, 19) ^ x >> 10 }
}

/// An OpenSSH public key as one line of an `authorized_keys` file or a `.pub` file gives it:
/// `TYPE BASE64 [COMMENT]`, and its fingerprint as `ssh-keygen -l` prints it.
enum SSHPublicKey {
    /// The key types read: those `ssh-keygen` makes today, security keys' among them.
    static let types: Set<String> = [
        "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-rsa",
        "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com",
    ]

    /// The longest line read, in bytes: an RSA key of 16,384 bits takes some 2,800.
    static let maximumLineLength = 16 << 10

    /// The key on `line` (without its line break): its type, the bytes its base64 decodes to, and its
    /// comment when it has one. `nil` for a line longer than `maximumLineLength`, one with a control
    /// character (a tab or a line break among them), options before the type, a type not in `types`,
    /// base64 that does not decode, or a key whose first field (a length-prefixed string) is not its
    /// type. Fields are separated by spaces; the comment is the rest of the line.
    static func parse(_ line: String) -> (type: String, blob: [UInt8], comment: String?)? {
        guard line.utf8.count <= maximumLineLength,
            !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        var rest = line[...].drop { $0 == " " }
        let type = rest.prefix { $0 != " " }
        rest = rest.dropFirst(type.count).drop { $0 == " " }
        let encoded = rest.prefix { $0 != " " }
        rest = rest.dropFirst(encoded.count).drop { $0 == " " }
        while rest.last == " " { rest = rest.dropLast() }
        guard types.contains(String(type)), let data = Data(base64Encoded: String(encoded)) else { return nil }
        let blob = [UInt8](data)
        // The blob starts with its type: a 32-bit length, most significant byte first, and the name.
        guard blob.count >= 4 else { return nil }
        let length = Int(blob[0]) << 24 | Int(blob[1]) << 16 | Int(blob[2]) << 8 | Int(blob[3])
        guard length <= blob.count - 4, blob[4..<4 + length].elementsEqual(type.utf8) else { return nil }
        return (String(type), blob, rest.isEmpty ? nil : String(rest))
    }

    /// `SHA256:` and the base64 of the key's SHA-256 digest without its `=` padding: what
    /// `ssh-keygen -lf KEY.pub` prints for it.
    static func fingerprint(blob: [UInt8]) -> String {
        let encoded = Data(SHA256.hash(blob)).base64EncodedString()
        return "SHA256:" + encoded.filter { $0 != "=" }
    }
}
