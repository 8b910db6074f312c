// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "bookclub",
    platforms: [.macOS(.v13)],
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
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
