"""The tablet's certificate: made once and kept, naming its LAN address, made again for a
new address under the same authority (so a phone's trust survives a new network), and
the authority limited to private addresses and localhost."""

from __future__ import annotations

import ipaddress
import ssl

from cryptography import x509

from companion.host.tls import table_certificate


def _names(path) -> set[str]:
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    alt = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return {str(n.value) for n in alt}


def test_made_once_and_kept_with_the_lan_address_and_localhost(tmp_path):
    first = table_certificate("192.168.1.20", tmp_path)
    assert _names(first.cert_pem) == {"192.168.1.20", "localhost", "127.0.0.1"}
    kept = (first.ca_pem.read_bytes(), first.cert_pem.read_bytes(), first.key_pem.read_bytes())
    again = table_certificate("192.168.1.20", tmp_path)
    assert (
        again.ca_pem.read_bytes(),
        again.cert_pem.read_bytes(),
        again.key_pem.read_bytes(),
    ) == kept
    assert (tmp_path / "table-ca.key").stat().st_mode & 0o077 == 0  # the keys are owner-only
    assert first.key_pem.stat().st_mode & 0o077 == 0
    assert isinstance(again.context(), ssl.SSLContext)


def test_a_new_network_gets_a_new_page_certificate_under_the_same_authority(tmp_path):
    home = table_certificate("192.168.1.20", tmp_path)
    authority, code = home.ca_pem.read_bytes(), home.fingerprint()
    away = table_certificate("10.0.0.7", tmp_path)
    assert away.ca_pem.read_bytes() == authority and away.fingerprint() == code
    assert "10.0.0.7" in _names(away.cert_pem)
    ca = x509.load_pem_x509_certificate(authority)
    leaf = x509.load_pem_x509_certificate(away.cert_pem.read_bytes())
    leaf.verify_directly_issued_by(ca)


def test_the_authority_vouches_for_private_addresses_and_localhost_only(tmp_path):
    made = table_certificate("10.77.0.1", tmp_path)
    ca = x509.load_pem_x509_certificate(made.ca_pem.read_bytes())
    limits = ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert limits.critical
    nets = {n.value for n in limits.value.permitted_subtrees if isinstance(n, x509.IPAddress)}
    assert ipaddress.ip_network("10.0.0.0/8") in nets
    assert not any(ipaddress.ip_address("8.8.8.8") in net for net in nets)
    assert {n.value for n in limits.value.permitted_subtrees if isinstance(n, x509.DNSName)} == {
        "localhost"
    }
