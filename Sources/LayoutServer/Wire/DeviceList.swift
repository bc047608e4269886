import InterfaceBuilder
import JSON

/// The devices Interface Builder documents are laid out on, as `GET /v1/devices` and an
/// import's answer name them: screen, scale and safe area in one orientation.
enum DeviceList {
    static func json(_ d: Device, landscape: Bool) -> JSON {
        let screen = d.screen(landscape: landscape)
        return .object([
            ("id", .string(d.id)), ("name", .string(d.name)), ("orientation", .string(landscape ? "landscape" : "portrait")),
            ("width", .number(screen.width)), ("height", .number(screen.height)), ("scale", .number(d.scale)),
            (
                "safeArea",
                .object([
                    ("top", .number(screen.safeArea.top)), ("left", .number(screen.safeArea.left)),
                    ("bottom", .number(screen.safeArea.bottom)), ("right", .number(screen.safeArea.right))
                ])
            )
        ])
    }

    /// Every device in both orientations (`GET /v1/devices`).
    static let all: JSON = .object([
        ("devices", .array(Device.all.flatMap { d in [json(d, landscape: false), json(d, landscape: true)] }))
    ])
}
