import Foundation

extension RealmError {
    /// The lower-level error this one reports, when there is one: the system's `POSIXError`
    /// for `io` (from its errno), the server's `ServerFailure` for `server`; nil otherwise.
    ///
    /// ```swift
    /// catch let error as RealmError where (error.cause as? POSIXError)?.code == .ENOSPC { … }
    /// ```
    public var cause: (any Error & Sendable)? {
        switch self {
        case .io(_, _, let errno, _): POSIXErrorCode(rawValue: errno).map { POSIXError($0) }
        case .server(_, _, let state, let message): ServerFailure(state: state, message: message)
        default: nil
        }
    }
}

/// What the sync server's client library (libpq) reported: a refused statement's SQLSTATE
/// (`23505` for a duplicate key; empty when the connection itself failed) and its message.
public struct ServerFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE, or empty when no statement was answered.
    public var state: String
    /// The server's (or libpq's) own text.
    public var message: String

    public init(state: String, message: String) {
        self.state = state
        self.message = message
    }

    public var description: String { state.isEmpty ? message : "\(message) (SQLSTATE \(state))" }
}
