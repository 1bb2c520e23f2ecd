"""The tablet's own certificate, so phones get a secure page (and with it the live camera)
on the table's network.

Browsers give `getUserMedia` only to secure pages: loopback or HTTPS.  A tablet has no
public name a public authority would certify, so it makes its own, once per install, and
keeps it under the user data folder:

- a **table authority** (`table-ca.pem`, its key `table-ca.key`): the one certificate a
  phone installs, once.  It is name-constrained to private addresses and `localhost`, so
  a phone that trusts it trusts it for nothing on the internet;
- the **page's certificate** (`table.pem`, `table.key`), signed by it, naming the LAN
  address, `localhost` and 127.0.0.1 in subjectAltName.  When the tablet moves to another
  network it is made again for the new address; the authority, and every phone's trust in
  it, stays.

Keys are EC P-256 (quick to make on a tablet, short handshakes) and written owner-only.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import ssl
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_YEARS = 20  # the phones' trust should outlive the tablet
LEAF_DAYS = 397  # what browsers accept for a server certificate
PRIVATE_NETS = ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.0.0/16", "127.0.0.0/8")


@dataclass(frozen=True)
class TableCertificate:
    """The files of this tablet's certificate and what a person compares on a phone."""

    folder: Path
    address: str

    @property
    def ca_pem(self) -> Path:
        return self.folder / "table-ca.pem"

    @property
    def cert_pem(self) -> Path:
        return self.folder / "table.pem"

    @property
    def key_pem(self) -> Path:
        return self.folder / "table.key"

    def ca_der(self) -> bytes:
        """The authority as a phone downloads it (DER: what Android and iOS install)."""
        cert = x509.load_pem_x509_certificate(self.ca_pem.read_bytes())
        return cert.public_bytes(serialization.Encoding.DER)

    def fingerprint(self) -> str:
        """The authority's SHA-256 in groups of four, first 16 hex digits: short enough to
        compare by eye between the tablet's screen and a phone's certificate details."""
        digest = x509.load_pem_x509_certificate(self.ca_pem.read_bytes()).fingerprint(
            hashes.SHA256()
        )
        text = digest.hex().upper()[:16]
        return " ".join(text[i : i + 4] for i in range(0, len(text), 4))

    def context(self) -> ssl.SSLContext:
        """A server context serving the page's certificate and the authority behind it."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        chain = self.folder / "table-chain.pem"
        context.load_cert_chain(chain, self.key_pem)
        return context


def default_folder() -> Path:
    from companion.paths import data_home

    return data_home() / "tls"


def table_certificate(address: str, folder: Path | None = None) -> TableCertificate:
    """This tablet's certificate for `address`: made the first time, kept after; the page's
    certificate is made again only when it does not name `address` or is near its end."""
    folder = folder or default_folder()
    folder.mkdir(parents=True, exist_ok=True)
    kept = TableCertificate(folder, address)
    if not (kept.ca_pem.exists() and (folder / "table-ca.key").exists()):
        _write_authority(folder)
    if not _leaf_fits(kept, address):
        _write_leaf(folder, address)
    return kept


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


def _key_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _write_authority(folder: Path) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    tag = os.urandom(3).hex().upper()
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Table Companion"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Table Companion table {tag}"),
        ]
    )
    permitted: list[x509.GeneralName] = [x509.DNSName("localhost")]
    permitted += [x509.IPAddress(ipaddress.ip_network(net)) for net in PRIVATE_NETS]
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=365 * CA_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.NameConstraints(permitted, None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write_private(folder / "table-ca.key", _key_bytes(key))
    (folder / "table-ca.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "table.pem").unlink(missing_ok=True)  # a page certificate of an older authority


def _leaf_fits(kept: TableCertificate, address: str) -> bool:
    try:
        cert = x509.load_pem_x509_certificate(kept.cert_pem.read_bytes())
        ca = x509.load_pem_x509_certificate(kept.ca_pem.read_bytes())
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        ips = {str(ip) for ip in names.get_values_for_type(x509.IPAddress)}
    except (OSError, ValueError, x509.ExtensionNotFound):
        return False
    fresh = cert.not_valid_after_utc - _now() > datetime.timedelta(days=30)
    chained = (kept.folder / "table-chain.pem").exists()
    return address in ips and fresh and cert.issuer == ca.subject and chained


def _write_leaf(folder: Path, address: str) -> None:
    ca_key = serialization.load_pem_private_key((folder / "table-ca.key").read_bytes(), None)
    assert isinstance(ca_key, ec.EllipticCurvePrivateKey)
    ca = x509.load_pem_x509_certificate((folder / "table-ca.pem").read_bytes())
    key = ec.generate_private_key(ec.SECP256R1())
    alt: list[x509.GeneralName] = [
        x509.DNSName("localhost"),
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
    ]
    if address != "127.0.0.1":
        alt.insert(0, x509.IPAddress(ipaddress.ip_address(address)))
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(
            x509.Name(
                [
                    x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Table Companion"),
                    x509.NameAttribute(NameOID.COMMON_NAME, address),
                ]
            )
        )
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=LEAF_DAYS))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    pem = cert.public_bytes(serialization.Encoding.PEM)
    _write_private(folder / "table.key", _key_bytes(key))
    (folder / "table.pem").write_bytes(pem)
    (folder / "table-chain.pem").write_bytes(pem + ca.public_bytes(serialization.Encoding.PEM))
