import BookClubCore
import Testing

/// One way to write a number for people, and it never traps.
@Suite struct NumberTextTests {
    @Test(
        arguments: [
            (10.0, 1, "10"), (35.94, 1, "35.9"), (35.96, 1, "36"), (0.25, 3, "0.25"), (-0.5, 1, "-0.5"),
            (-0.04, 1, "0"),
            (4.75, 6, "4.75"), (412, 0, "412"), (1e300, 1, "1e+300"), (.nan, 1, "0"), (.infinity, 2, "0"),
        ] as [(Double, Int, String)])
    func numbersAreWrittenShort(_ value: Double, _ decimals: Int, _ expected: String) {
        #expect(NumberText.short(value, decimals: decimals) == expected)
    }
}
