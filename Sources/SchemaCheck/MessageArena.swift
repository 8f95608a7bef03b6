#if VendoredC
import CJanssonVendored
#else
import CJansson
#endif
import CSchemaCheck
import JSONCore

/// A per-thread arena for bulk validation: each message is parsed into it (`sc_parse_in_arena`),
/// checked, released, and the arena is reset for the next one, so the values of a message cost
/// no malloc or free. Use one arena on one thread at a time (not Sendable).
///
/// Arenas are opt-in per process: they need jansson's allocator hooks, which apply to every
/// jansson user in the process. Until `installAllocatorHooks()` was called, a `MessageArena` is
/// inactive and parses on the heap. bridgectl calls it for `validate --ndjson`; a library
/// embedded in an app (BridgeHost) must not, so an app's other jansson users keep their allocator.
///
/// Safety: the document handed to `withDocument`'s body must not outlive the body; that is
/// checked (a document kept elsewhere stops the process instead of being reset under its
/// owner). When no arena is available, messages are parsed on the heap as usual.
public final class MessageArena {
    /// Installs jansson's allocator hooks for the whole process (once; later calls return the
    /// first answer). Call it early, before other threads use jansson, and only in a process
    /// that owns its use of jansson (a command-line tool, not an app). False: no arenas (no
    /// address space), and jansson keeps malloc.
    @discardableResult
    public static func installAllocatorHooks() -> Bool {
        sc_arena_install_hooks() == 0
    }

    private let arena: OpaquePointer?
    /// A document lives in the arena now: a second one would be reset away under the first.
    private var holdsDocument = false

    public init() {
        arena = sc_arena_new()
    }

    deinit {
        sc_arena_free(arena)
    }

    /// Whether messages really go into an arena (false: plain `sc_parse`).
    public var isActive: Bool { arena != nil }

    /// Parses `bytes` into the arena, hands the document (or the parse error) to `body`, then
    /// releases the document and resets the arena.
    public func withDocument<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: ParseLimits,
        _ body: (Swift.Result<JSONDocument, JSONParseError>) -> Result
    ) -> Result {
        precondition(!holdsDocument, "MessageArena.withDocument called while another document lives in the arena")
        holdsDocument = true
        defer { holdsDocument = false }
        var document: JSONDocument?
        var parseError = JSONParseError(message: "")
        switch JSONDocument.parse(bytes, limits: limits, arena: arena) {
        case .success(let raw): document = JSONDocument(owning: raw)
        case .failure(let error): parseError = error
        }
        let result = body(document.map { .success($0) } ?? .failure(parseError))
        if let raw = document?.raw {
            precondition(isKnownUniquelyReferenced(&document),
                         "a JSONDocument parsed into a MessageArena outlived withDocument's body")
            document!.ownsValue = false
            document = nil
            // Frees the value with the arena: no walk over its tree when it all lies in the arena.
            sc_arena_release(arena, raw)
        } else {
            sc_arena_reset(arena)
        }
        return result
    }
}
