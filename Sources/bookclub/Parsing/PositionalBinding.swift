/// Assigns positional tokens to a command's declared arguments.
///
/// Required arguments are filled first; optional ones take what is left in
/// declaration order; a repeating argument takes everything that remains.
enum PositionalBinding {
    static func bind(_ tokens: [String], to specs: [ArgumentSpec]) -> Result<[String: [String]], ParseError> {
        let requiredCount = specs.filter { !$0.isOptional }.count
        var spareForOptionals = max(0, tokens.count - requiredCount)
        var remaining = tokens[...]
        var bound: [String: [String]] = [:]

        for spec in specs {
            if spec.isRepeating {
                let laterRequired = specs.drop { $0.name != spec.name }.dropFirst().filter { !$0.isOptional }.count
                let take = max(0, remaining.count - laterRequired)
                let values = Array(remaining.prefix(take))
                remaining = remaining.dropFirst(take)
                if values.isEmpty && !spec.isOptional {
                    return .failure(.missingArgument(label: "\(spec.label) ...", help: spec.help))
                }
                bound[spec.name] = values
            } else if spec.isOptional {
                guard spareForOptionals > 0, let value = remaining.first else { continue }
                spareForOptionals -= 1
                remaining = remaining.dropFirst()
                bound[spec.name] = [value]
            } else {
                guard let value = remaining.first else {
                    return .failure(.missingArgument(label: spec.label, help: spec.help))
                }
                remaining = remaining.dropFirst()
                bound[spec.name] = [value]
            }
        }
        guard remaining.isEmpty else { return .failure(.unexpectedArguments(Array(remaining))) }
        return .success(bound)
    }
}
