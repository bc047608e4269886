import CMicroHTTPD

// libmicrohttpd's C callbacks, each a thin trampoline into the `HTTPServer` passed as `cls`:
// the one place C calls into Swift.

let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, conCls in
    let server = Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue()
    return server.onRequest(connection!, url!, method!, upload, uploadSize!, conCls!)
}

let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue().admits(address) ? .YES : .NO
}

let connectionNotify: MHD_NotifyConnectionCallback = { cls, connection, context, code in
    Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue().connectionChanged(connection, context, opened: layoutd_mhd_is_started(code) != 0)
}

let completedHandler: MHD_RequestCompletedCallback = { cls, connection, conCls, _ in
    Unmanaged<HTTPServer>.fromOpaque(cls!).takeUnretainedValue().completed(connection, conCls)
}

let upgradeHandler: MHD_UpgradeHandler = { cls, _, _, extra, extraSize, sock, urh in
    let box = Unmanaged<UpgradeBox>.fromOpaque(cls!).takeRetainedValue()
    var initial: [UInt8] = []
    if let extra, extraSize > 0 {
        extra.withMemoryRebound(to: UInt8.self, capacity: extraSize) { initial = Array(UnsafeBufferPointer(start: $0, count: extraSize)) }
    }
    box.run(UpgradedConnection(socket: sock, handle: urh!, initial: initial))
}

let releaseBody: MHD_ContentReaderFreeCallback = { cls in
    Unmanaged<LentBody>.fromOpaque(cls!).release()
}
