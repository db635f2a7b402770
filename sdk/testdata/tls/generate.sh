#!/usr/bin/env bash
# Regenerates the test-only certificate authority and the server certificate it signs, used by
# every SDK's TLS test (a server on localhost / 127.0.0.1 that the client must verify). The keys
# are public on purpose: they protect nothing. Valid for 100 years so the tests never expire.
set -euo pipefail
cd "$(dirname "$0")"
days=36500
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout ca.key -out ca.pem -days "$days" -subj "/CN=Deckmate test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout server.key -out server.csr -subj "/CN=localhost"
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem \
  -days "$days" -extfile <(printf '%s\n' \
    "basicConstraints=critical,CA:FALSE" \
    "keyUsage=critical,digitalSignature,keyEncipherment" \
    "extendedKeyUsage=serverAuth" \
    "subjectAltName=DNS:localhost,IP:127.0.0.1")
# PKCS#8 so that every TLS stack (rustls, OpenSSL, BoringSSL, Node) reads the key.
openssl pkcs8 -topk8 -nocrypt -in server.key -out server.key.pk8 && mv server.key.pk8 server.key
rm -f server.csr ca.srl ca.key
