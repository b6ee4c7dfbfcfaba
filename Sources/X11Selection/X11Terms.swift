/// How X11 names owners, times and handover requests for the core's decisions (`BackendTerms`): windows, server
/// timestamps, SAVE_TARGETS requests.
public enum X11Terms: BackendTerms {
    public typealias Owner = X11Window
    public typealias Time = X11Timestamp
    public typealias Handover = SaveTargetsRequest
}
