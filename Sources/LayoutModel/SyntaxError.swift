/// A text the model parses (an `expr`, a VFL string, an anchor) that breaks its grammar: where,
/// in characters from the text's start (so a non-ASCII id does not shift it), and why.
public struct SyntaxError: Error, Sendable, Equatable {
    public var position: Int
    public var message: String

    public init(position: Int, message: String) {
        self.position = position
        self.message = message
    }
}
