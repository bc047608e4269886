import CGnuTLS
import CheckedNumbers
import Synchronization

/// The server's certificate chain and key, handed to GnuTLS at each handshake (libmicrohttpd's
/// certificate callback), so that replacing them takes effect on the next connection, without
/// a restart and without touching connections already open.
///
/// GnuTLS's callback carries no context: the certificate in force is one per process.
enum TLSCertificates {
    /// Parsed once; GnuTLS reads these at every handshake and never frees them.
    private struct Loaded: @unchecked Sendable {
        let chain: UnsafeMutablePointer<gnutls_pcert_st>
        let count: UInt32
        let key: gnutls_privkey_t
    }

    /// The set in force, and those it replaced: a handshake under way may still hold a
    /// replaced set, so they are freed only once the daemon stopped (a few KB a reload).
    private static let state = Mutex<(current: Loaded?, retired: [Loaded])>((nil, []))

    struct Invalid: Error, CustomStringConvertible { let description: String }

    /// Parses a PEM chain and key and puts them in force; what does not parse, or a key
    /// that is not the certificate's, is refused and the set in force stays.
    static func install(_ credentials: TLSCredentials) throws(Invalid) {
        let loaded = try load(credentials)
        state.withLock { s in
            if let old = s.current { s.retired.append(old) }
            s.current = loaded
        }
    }

    /// Frees every set, once no daemon can ask for one.
    static func removeAll() {
        state.withLock { s in
            for set in s.retired + (s.current.map { [$0] } ?? []) { free(set) }
            s = (nil, [])
        }
    }

    /// libmicrohttpd's MHD_OPTION_HTTPS_CERT_CALLBACK.
    nonisolated(unsafe) static let callback: layoutd_certificate_callback = { _, _, _, _, _, chain, count, key in
        guard let set = TLSCertificates.state.withLock({ $0.current }) else { return -1 }
        chain?.pointee = set.chain
        count?.pointee = set.count
        key?.pointee = set.key
        return 0
    }

    private static let maxChain = 16

    private static func load(_ credentials: TLSCredentials) throws(Invalid) -> Loaded {
        // GnuTLS's own check that the key is the certificate's (mismatches show only at a
        // client's handshake otherwise).
        var check: gnutls_certificate_credentials_t?
        gnutls_certificate_allocate_credentials(&check)
        defer { gnutls_certificate_free_credentials(check) }
        var status = withDatum(credentials.certificatePEM) { cert in
            withDatum(credentials.keyPEM) { key in gnutls_certificate_set_x509_key_mem2(check, cert, key, GNUTLS_X509_FMT_PEM, nil, 0) }
        }
        guard status >= 0 else { throw Invalid(description: "the TLS certificate and key: \(String(cString: gnutls_strerror(status)))") }
        let chain = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: maxChain)
        var count = UInt32(maxChain)
        status = withDatum(credentials.certificatePEM) { gnutls_pcert_list_import_x509_raw(chain, &count, $0, GNUTLS_X509_FMT_PEM, 0) }
        guard status >= 0 else {
            chain.deallocate()
            throw Invalid(description: "the TLS certificate chain: \(String(cString: gnutls_strerror(status)))")
        }
        var key: gnutls_privkey_t?
        gnutls_privkey_init(&key)
        status = withDatum(credentials.keyPEM) { gnutls_privkey_import_x509_raw(key, $0, GNUTLS_X509_FMT_PEM, nil, 0) }
        guard status >= 0, let key else {
            gnutls_privkey_deinit(key)
            for i in 0..<Int(count) { gnutls_pcert_deinit(chain + i) }
            chain.deallocate()
            throw Invalid(description: "the TLS key: \(String(cString: gnutls_strerror(status)))")
        }
        return Loaded(chain: chain, count: count, key: key)
    }

    private static func free(_ set: Loaded) {
        for i in 0..<Int(set.count) { gnutls_pcert_deinit(set.chain + i) }
        set.chain.deallocate()
        gnutls_privkey_deinit(set.key)
    }

    private static func withDatum<T>(_ text: String, _ body: (UnsafePointer<gnutls_datum_t>) -> T) -> T {
        var text = text
        return text.withUTF8 { bytes in
            var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: bytes.baseAddress), size: UInt32(bytes.count))
            return body(&datum)
        }
    }
}
