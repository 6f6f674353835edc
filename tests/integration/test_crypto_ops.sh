# --workload mac|cipher make perftools' evp_mac / evp_cipher ops, call for
# call and byte for byte (src/stress/workloads/crypto_ops.c); mac-rekey and
# cipher-rekey keep rcuprof's earlier re-keying ops.  Checked two ways, one
# table row per case (tagged with its line):
#  * sizes and inputs: worker 0's first op output (run.workload.check) equals
#    the MAC or ciphertext computed independently (Python's hmac; Debian's
#    openssl command, not the variant's library) from the documented key,
#    iv and data (docs/interfaces.md);
#  * calls: method-store fetches per op, counted by the probe layer
#    (probes.sum.store.cache_gets / run.ops, exact): the shared peer ops
#    fetch nothing per op (the context is keyed once; the MAC is reset with
#    EVP_MAC_init(ctx, NULL, 0, NULL)), while re-keying the MAC fetches its
#    digest every op.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
command -v openssl >/dev/null || { echo "SKIPPED: Debian's openssl command is missing (make deps installs it)"; exit 77; }
V=$(first_variant)
# A variant with the probe layer, for the fetch counts.
PV=""
for v in stock rcu-sync rcu-nosync; do
    case ",$RCUPROF_VARIANTS_BUILT," in *,"$v",*) PV=$v; break ;; esac
done

hexof() { "$PY" -c "import sys; print(bytes(eval(sys.argv[1])).hex())" "$1"; }
PKEY='range(64)'                        # peer ops: key[i] = i
PIV='(0x40 + i for i in range(16))'     # iv[i] = 0x40 + i
PDATA='(0x80 + i for i in range(32))'   # data[i] = 0x80 + i
# The rekey ops' inputs (their source: crypto_ops.c key, iv, data).
RKEY='b"rcuprof key, 32 bytes, not real\0"'
RIV='b"rcuprof iv 16 b\0"'
RDATA='[1] + [0] * 63'

# expected KIND ALG UPDATES: the first op's whole output, hex.
expected() {
    local kind=$1 alg=$2 u=$3 k iv d
    case $kind in
    mac) "$PY" -c "import hmac,hashlib; print(hmac.new(bytes($PKEY), bytes($PDATA) * $u, hashlib.sha256).hexdigest())" ;;
    mac-rekey) "$PY" -c "import hmac,hashlib; print(hmac.new(bytes($RKEY), bytes($RDATA) * $u, hashlib.sha256).hexdigest())" ;;
    cipher)
        k=$(hexof "$PKEY"); iv=$(hexof "$PIV"); d=$(hexof "$PDATA")
        case $alg in AES-128-CBC) k=${k:0:32} ;; AES-256-CBC) k=${k:0:64} ;; esac
        "$PY" -c "import sys; sys.stdout.buffer.write(bytes.fromhex('$d'[:32]) * $u)" \
            | openssl enc "-${alg,,}" -K "$k" -iv "$iv" | od -An -v -tx1 | tr -d ' \n' ;;
    cipher-rekey)
        # Each 64-byte update overwrites the buffer: with one update the
        # output is the 64-byte ciphertext plus the padding block.
        k=$(hexof "$RKEY"); iv=$(hexof "$RIV")
        "$PY" -c "import sys; sys.stdout.buffer.write(bytes($RDATA) * $u)" \
            | openssl enc "-${alg,,}" -K "$k" -iv "$iv" | od -An -v -tx1 | tr -d ' \n' ;;
    esac
}

# row LINE WORKLOAD MODE UPDATES ALG LIBCTX FETCHES_PER_OP CALLS_SUBSTRING
row() {
    local line=$1 wl=$2 mode=$3 u=$4 alg=$5 lc=$6 fpo=$7 calls=$8 f=() l=()
    local tag="line $line: $wl $mode -u $u $alg${lc:+ --libctx $lc}"
    case $wl in mac*) f=(--fetch "MAC:$alg") ;; *) f=(--fetch "CIPHER:$alg") ;; esac
    [ -n "$lc" ] && l=(--libctx "$lc")
    if ! "$RCUPROF" run --variant "$V" --workload "$wl" --mode "$mode" -u "$u" "${f[@]}" "${l[@]}" \
            -n 1 -d 40 -w 5 --rtt off --json > "$TMP/r.json" 2> "$TMP/err"; then
        fail "$tag: run failed: $(cat "$TMP/err")"; return
    fi
    want=$(expected "$wl" "$alg" "$u")
    "$PY" - "$TMP/r.json" "$want" "$calls" "${lc:-default}" "$wl" <<'PY' 2> "$TMP/pyerr" \
        && pass "$tag: first output, sizes and calls as documented" || fail "$tag: $(tail -1 "$TMP/pyerr")"
import json, sys
w = json.load(open(sys.argv[1]))["run"]["workload"]
want, calls, libctx, wl = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
c = w["check"]
assert c["output_bytes"] * 2 == len(want), ("output bytes", c["output_bytes"], len(want) // 2)
assert c["output_hex"] == want[:128], ("output", c["output_hex"], "want", want[:128])
assert calls in w["calls"], ("calls", w["calls"])
if not wl.endswith("-rekey"):
    assert w["libctx"] == libctx, ("libctx", w["libctx"], libctx)
PY
    [ -z "$PV" ] && return
    if ! "$RCUPROF" run --variant "$PV" --workload "$wl" --mode "$mode" -u "$u" "${f[@]}" "${l[@]}" \
            -n 1 --ops 300 -w 5 --rtt off --json > "$TMP/p.json" 2> "$TMP/err"; then
        fail "$tag: run on $PV failed: $(cat "$TMP/err")"; return
    fi
    "$PY" - "$TMP/p.json" "$fpo" <<'PY' 2> "$TMP/pyerr" \
        && pass "$tag: $fpo method-store fetches per op on $PV" || fail "$tag on $PV: $(tail -1 "$TMP/pyerr")"
import json, sys
d = json.load(open(sys.argv[1]))
ops = d["run"]["ops"]
gets = d["probes"]["sum"]["store"]["cache_gets"]
assert ops == 300, ("ops", ops)
assert gets == int(sys.argv[2]) * ops, ("cache_gets", gets, "ops", ops, "want per op", sys.argv[2])
PY
}

row $LINENO mac          shared   1 HMAC        ""      0 "EVP_MAC_update(32 B) x updates, EVP_MAC_final, EVP_MAC_init(ctx, NULL, 0, NULL)"
row $LINENO mac          shared   3 HMAC        ""      0 "EVP_MAC_init(ctx, NULL, 0, NULL)"
row $LINENO mac          isolated 1 HMAC        ""      2 "EVP_MAC_fetch, EVP_MAC_CTX_new, EVP_MAC_init(key 64 B, digest)"
row $LINENO mac          shared   1 HMAC        own     0 "EVP_MAC_init(ctx, NULL, 0, NULL)"
row $LINENO cipher       shared   1 AES-128-CBC ""      0 "EVP_CipherUpdate(16 B) x updates, EVP_CipherFinal_ex"
row $LINENO cipher       shared   3 AES-128-CBC ""      0 "EVP_CipherUpdate(16 B)"
row $LINENO cipher       shared   1 AES-256-CBC ""      0 "EVP_CipherUpdate(16 B)"
row $LINENO cipher       isolated 1 AES-128-CBC ""      1 "EVP_CipherInit_ex2(built-in cipher"
row $LINENO cipher       isolated 1 AES-128-CBC own     1 "EVP_CIPHER_fetch, EVP_CIPHER_CTX_new"
row $LINENO mac-rekey    shared   1 HMAC        ""      1 "EVP_MAC_init(key 32 B, digest), EVP_MAC_update(64 B)"
row $LINENO cipher-rekey shared   1 AES-256-CBC ""      0 "EVP_EncryptInit_ex2(key, iv), EVP_EncryptUpdate(64 B)"

# The default cipher is perftools' (AES-128-CBC); --help names the ops.
"$RCUPROF" run --variant "$V" --workload cipher -n 1 -d 20 -w 5 --rtt off --json > "$TMP/d.json" \
    && "$PY" -c "import json,sys; w=json.load(open(sys.argv[1]))['run']['workload']; assert w['alg']=='AES-128-CBC' and w['data_bytes']==16 and w['key_bytes']==16, w" "$TMP/d.json" \
    && pass "cipher's default is AES-128-CBC on 16-byte data" || fail "cipher default: $(cat "$TMP/d.json" | head -c 300)"
"$RCUPROF" run --help | grep -q "mac-rekey" && pass "--help lists mac-rekey" || fail "--help lacks mac-rekey"
expect_error 2 "built-in EVP_CIPHER" "$RCUPROF" run --variant "$V" --workload cipher --fetch CIPHER:NOPE-1 -d 10
[ -z "$PV" ] && echo "note: no variant with the probe layer is built (stock, rcu-sync, rcu-nosync): fetch counts not checked"
finish
