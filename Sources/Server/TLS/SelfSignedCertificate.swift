import Crypto
import Foundation
import SwiftASN1
import X509

/// A self-signed certificate made at start-up for `--tls`: P-256, valid for a year, for `localhost`,
/// `127.0.0.1`, `::1` and the host the server binds. Clients must be told not to verify it (the
/// `arcgis` package: `verify_cert=False`), or be given the PEM written beside it.
public struct SelfSignedCertificate: Sendable {
    /// The certificate, PEM.
    public var certificatePEM: String
    /// The private key, PEM (never written anywhere by the server but the TLS configuration).
    public var privateKeyPEM: String
    /// SHA-256 fingerprint of the DER certificate, `AA:BB:...`, to print on start.
    public var fingerprint: String

    public static func make(host: String) throws -> SelfSignedCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            CommonName(host == "0.0.0.0" || host == "::" ? "localhost" : host)
            OrganizationName("MapRules (self-signed, development only)")
        }
        var alternativeNames: [GeneralName] = [.dnsName("localhost")]
        for address in Set(["127.0.0.1", "::1", host]) {
            if let bytes = ipBytes(address) { alternativeNames.append(.ipAddress(ASN1OctetString(contentBytes: bytes[...]))) }
        }
        if ipBytes(host) == nil, host != "localhost" { alternativeNames.append(.dnsName(host)) }
        let now = Date()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600),
            notValidAfter: now.addingTimeInterval(365 * 24 * 3600),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                KeyUsage(digitalSignature: true, keyCertSign: false)
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(alternativeNames)
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        let pem = try certificate.serializeAsPEM()
        let digest = SHA256.hash(data: Data(pem.derBytes))
        return SelfSignedCertificate(certificatePEM: pem.pemString, privateKeyPEM: key.pemRepresentation,
                                     fingerprint: digest.map { String(format: "%02X", $0) }.joined(separator: ":"))
    }

    /// The 4 or 16 bytes of an IP address literal, nil for a host name.
    static func ipBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
