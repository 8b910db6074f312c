// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    // Linux only, for now: the storage engine calls Glibc directly (flock, mmap,
    // st_mtim), all of it in Sources/BookClubCore/Storage/FileSystem.swift, the one file a port to
    // Darwin would change.
    name: "bookclub",
    products: [
        .executable(name: "bookclub", targets: ["bookclub"]),
        .library(name: "BookClubCore", targets: ["BookClubCore"]),
    ],
    targets: [
        .target(name: "BookClubCore", swiftSettings: strict),
        .executableTarget(name: "bookclub", dependencies: ["BookClubCore"], swiftSettings: strict),
        .testTarget(
            name: "BookClubCoreTests",
            dependencies: ["BookClubCore", "bookclub"],
            exclude: ["Fixtures", "Snapshots"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
