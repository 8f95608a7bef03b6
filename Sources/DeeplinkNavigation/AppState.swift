/// Where the app is in its life cycle when a link or a CTA arrives (deeplink-routing-layer, step 3).
///
/// Foreground and background are handled alike: once the app was running its navigation
/// hierarchy exists, so a background -> foreground transition routes immediately. Only a cold
/// start has to wait at the ready gate until the tab bar (or root coordinator) is built.
public enum AppState: String, Sendable, CaseIterable {
    case foreground
    case background
    case coldStart
}
