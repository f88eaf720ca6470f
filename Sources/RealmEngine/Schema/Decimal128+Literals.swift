extension Decimal128: ExpressibleByStringLiteral {
    /// A decimal written in the program's source, as RealmSwift's `Decimal128("123e4")` (a
    /// literal: `Decimal128("1.5")` is this, not the failable `init?(_:)`). Text that is not a
    /// decimal number is a programming error and stops the program, as in RealmSwift; text
    /// from a user or a file goes through `init(string:)` or `init(parsing:)`.
    public init(stringLiteral text: String) {
        guard let value = Decimal128(text) else {
            preconditionFailure("Decimal128(\"\(text)\"): a decimal literal must be a decimal number")
        }
        self = value
    }

    /// Parses decimal text; throws `RealmError.invalidInput` for text that is not a decimal
    /// number (RealmSwift's `Decimal128(string:)`).
    public init(string text: String) throws {
        try self.init(parsing: text)
    }
}
