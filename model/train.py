"""Trains codectx-code, codectx's static code-search embedding model.

`deno task model:train` runs this with Debian's python3 + python3-numpy. Python with numpy
rather than TypeScript because each step multiplies two batch-by-dimension matrices for
the in-batch similarities (and back): BLAS does that about twenty times faster than scalar
TypeScript loops, which turns a two-hour run into minutes on a shared two-core machine.

Model: one table of vectors (tied: queries and code share it) over the lexical index's
code-aware tokens; a text's vector is the IDF * (1 + ln tf) weighted mean of its tokens'
vectors, normalised. Loss: in-batch negatives, symmetric softmax cross-entropy over
scaled cosine similarities (query->code and code->query). Sparse (lazy) Adam on the rows a
batch touches. A held-out validation split (by file, made by model/data.ts); MRR@10 on it
after every epoch, early stopping on it; the best epoch is kept, quantised to int8 with a
per-row scale (checked on validation too) and written to model/codectx-code/.

Input: <cache>/tokens.tsv from `deno task model:data`.
"""

import argparse
import hashlib
import json
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    cache = os.environ.get("CODECTX_TRAIN_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "codectx-train",
    )
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cache", default=cache)
    p.add_argument("--out", default=os.path.join(HERE, "codectx-code"))
    p.add_argument("--dims", type=int, default=256)
    p.add_argument("--max-vocab", type=int, default=100_000)
    p.add_argument("--min-count", type=int, default=3)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--scale", type=float, default=20.0, help="cosine similarity scale (1/temperature)")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--patience", type=int, default=2)
    p.add_argument("--max-code-tokens", type=int, default=512)
    p.add_argument("--dropout", type=float, default=0.0, help="share of token weights zeroed per step (training only)")
    p.add_argument("--oov-buckets", type=int, default=12000, help="hashed rows for unknown tokens (0: none)")
    p.add_argument("--seed", type=int, default=8)
    p.add_argument("--limit", type=int, default=0, help="use only this many training pairs (experiments)")
    p.add_argument(
        "--hard-share",
        type=float,
        default=0.0,
        help="share of each language's pairs batched with their neighbours (same package folder first): hard "
        "negatives; 0.5 lowered the tuning sets' dense MRR@10 (mean .299 -> .290, 2026-11-24), so 0 by default",
    )
    p.add_argument("--no-write", action="store_true", help="train and report only")
    return p.parse_args()


def read_pairs(path, max_code_tokens):
    langs, splits, queries, codes, groups = [], [], [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) not in (4, 5):
                continue
            langs.append(parts[0])
            splits.append(parts[1])
            queries.append(parts[2].split(" "))
            codes.append(parts[3].split(" ")[:max_code_tokens])
            groups.append(parts[4] if len(parts) == 5 else "")
    return langs, splits, queries, codes, groups


def build_vocab(train_idx, queries, codes, max_vocab, min_count):
    counts = {}
    for i in train_idx:
        for t in queries[i]:
            counts[t] = counts.get(t, 0) + 1
        for t in codes[i]:
            counts[t] = counts.get(t, 0) + 1
    kept = [t for t, c in counts.items() if c >= min_count and t]
    kept.sort(key=lambda t: (-counts[t], t))
    return kept[:max_vocab]


def fnv1a(token):
    """FNV-1a over UTF-16 code units, as the runtime computes it in JavaScript."""
    h = 0x811C9DC5
    b = token.encode("utf-16-le")
    for i in range(0, len(b), 2):
        h ^= b[i] | (b[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def to_csr(texts, index, idf, buckets=0):
    """Distinct tokens of each text with weight idf * (1 + ln tf).

    Unknown tokens are skipped, or with `buckets` hashed to one of that many extra rows
    (after the vocabulary) with a hashed sign, so that two texts sharing a rare identifier
    still meet."""
    V = len(index)
    indptr = [0]
    ids, weights = [], []
    for toks in texts:
        tf = {}
        oov = {}
        for t in toks:
            j = index.get(t)
            if j is not None:
                tf[j] = tf.get(j, 0) + 1
            elif buckets:
                oov[t] = oov.get(t, 0) + 1
        for j, c in tf.items():
            ids.append(j)
            weights.append(1.0 + math.log(c))
        for t, c in oov.items():
            h = fnv1a(t)
            ids.append(V + (h >> 1) % buckets)
            weights.append((-1.0 if h & 1 else 1.0) * (1.0 + math.log(c)))
        indptr.append(len(ids))
    ids = np.asarray(ids, dtype=np.int64)
    w = np.asarray(weights, dtype=np.float32)
    if idf is not None:
        w *= idf[ids]
    return np.asarray(indptr, dtype=np.int64), ids, w


def gather(csr, rows):
    """Flat (ids, weights, segment of each entry, segment starts) for a set of texts."""
    indptr, ids, w = csr
    starts = indptr[rows]
    lens = indptr[rows + 1] - starts
    total = int(lens.sum())
    seg_start = np.zeros(len(rows), dtype=np.int64)
    np.cumsum(lens[:-1], out=seg_start[1:])
    flat = np.arange(total, dtype=np.int64) - np.repeat(seg_start - starts, lens)
    seg = np.repeat(np.arange(len(rows), dtype=np.int64), lens)
    return ids[flat], w[flat], seg, seg_start


def drop(g, p, rng):
    """Token dropout: zeroes a share p of the entries' weights (a text keeps its strongest)."""
    ids, w, seg, seg_start = g
    keep = rng.random(len(w)) >= p
    # Keep each text's first entry so that no text vanishes.
    keep[seg_start] = True
    return ids, w * keep, seg, seg_start


def bm25_baseline(queries, codes, val_by_lang):
    """BM25 (k1 1.2, b 0.75) on the validation pools, over the same tokens: the bar to beat."""
    res = {}
    for lang, rows in val_by_lang.items():
        docs = [codes[i] for i in rows]
        n = len(docs)
        avg = sum(len(d) for d in docs) / max(1, n)
        post = {}
        for k, d in enumerate(docs):
            tf = {}
            for t in d:
                tf[t] = tf.get(t, 0) + 1
            for t, c in tf.items():
                post.setdefault(t, []).append((k, c * 2.2 / (c + 1.2 * (0.25 + 0.75 * len(d) / avg))))
        rr = 0.0
        for k, i in enumerate(rows):
            s = np.zeros(n)
            for t in set(queries[i]):
                p = post.get(t)
                if not p:
                    continue
                idf = math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5))
                for j, v in p:
                    s[j] += idf * v
            rank = int((s >= s[k]).sum())
            rr += 1.0 / rank if rank <= 10 else 0.0
        res[lang] = round(rr / max(1, n), 4)
    res["macro_mrr10"] = round(float(np.mean(list(res.values()))), 4)
    return res


def pool(table, g):
    ids, w, _seg, seg_start = g
    p = np.add.reduceat(table[ids] * w[:, None], seg_start, axis=0)
    n = np.linalg.norm(p, axis=1, keepdims=True)
    n = np.maximum(n, 1e-9)
    return p / n, n


def embed_all(table, csr, rows, chunk=4096):
    out = []
    for s in range(0, len(rows), chunk):
        u, _ = pool(table, gather(csr, rows[s : s + chunk]))
        out.append(u)
    return np.concatenate(out) if out else np.zeros((0, table.shape[1]), dtype=np.float32)


def mrr_at_10(qv, cv):
    """MRR@10 and Recall@5 of query i finding code i among all codes."""
    rr, r5 = 0.0, 0
    for s in range(0, len(qv), 1024):
        sims = qv[s : s + 1024] @ cv.T
        target = sims[np.arange(sims.shape[0]), np.arange(s, s + sims.shape[0])]
        rank = (sims > target[:, None]).sum(axis=1) + 1
        rr += float(np.where(rank <= 10, 1.0 / rank, 0.0).sum())
        r5 += int((rank <= 5).sum())
    return rr / max(1, len(qv)), r5 / max(1, len(qv))


def validate(table, qcsr, ccsr, val_by_lang):
    res = {}
    for lang, rows in val_by_lang.items():
        qv = embed_all(table, qcsr, rows)
        cv = embed_all(table, ccsr, rows)
        m, r = mrr_at_10(qv, cv)
        res[lang] = {"mrr10": round(m, 4), "recall5": round(r, 4), "pairs": int(len(rows))}
    res["macro_mrr10"] = round(float(np.mean([v["mrr10"] for v in res.values()])), 4)
    return res


def quantize(table):
    scale = np.abs(table).max(axis=1) / 127.0
    scale = np.maximum(scale, 1e-12).astype(np.float32)
    q = np.clip(np.rint(table / scale[:, None]), -127, 127).astype(np.int8)
    return q, scale


def main():
    a = parse_args()
    rng = np.random.default_rng(a.seed)
    t0 = time.time()
    langs, splits, queries, codes, groups = read_pairs(os.path.join(a.cache, "tokens.tsv"), a.max_code_tokens)
    n = len(langs)
    train_idx = np.array([i for i in range(n) if splits[i] in ("train", "name")], dtype=np.int64)
    # Name pairs (a doc sentence against the function's name words) are trained on but are
    # not documents a query searches: the code IDF leaves them out.
    code_idx = np.array([i for i in range(n) if splits[i] == "train"], dtype=np.int64)
    if a.limit:
        train_idx = rng.permutation(train_idx)[: a.limit]
    val_idx = np.array([i for i in range(n) if splits[i] == "val"], dtype=np.int64)
    print(f"pairs: {n} (train {len(train_idx)}, validation {len(val_idx)}) read in {time.time() - t0:.0f} s")

    vocab = build_vocab(train_idx, queries, codes, a.max_vocab, a.min_count)
    index = {t: i for i, t in enumerate(vocab)}
    V, d = len(vocab), a.dims
    # IDF over the training code texts (the documents a query searches).
    df = np.zeros(V, dtype=np.float64)
    for i in code_idx:
        for j in {index[t] for t in codes[i] if t in index}:
            df[j] += 1
    N = len(code_idx)
    idf = (np.log((N + 1) / (df + 1)) + 1.0).astype(np.float32)
    qcsr = to_csr(queries, index, idf)
    ccsr = to_csr(codes, index, idf)
    # A pair needs at least one known token on each side.
    qlen = np.diff(qcsr[0])
    clen = np.diff(ccsr[0])
    ok = (qlen > 0) & (clen > 0)
    train_idx = train_idx[ok[train_idx]]
    val_idx = val_idx[ok[val_idx]]
    lang_arr = np.array(langs)
    val_by_lang = {l: val_idx[lang_arr[val_idx] == l] for l in sorted(set(lang_arr[val_idx]))}
    print(f"vocabulary {V} tokens (min count {a.min_count}), {d} dimensions; usable train {len(train_idx)}")
    print(f"prepared in {time.time() - t0:.0f} s")

    table = (rng.standard_normal((V, d)) * 0.1).astype(np.float32)
    m1 = np.zeros_like(table)
    m2 = np.zeros_like(table)
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    curve = []
    best = {"macro_mrr10": -1.0}
    best_table = table.copy()
    best_epoch = 0
    bad = 0
    bm25 = bm25_baseline(queries, codes, val_by_lang)
    print(f"BM25 on validation: MRR@10 {bm25['macro_mrr10']:.4f}  (" + "  ".join(f"{l} {bm25[l]:.3f}" for l in val_by_lang) + ")")
    v0 = validate(table, qcsr, ccsr, val_by_lang)
    print(f"epoch  0  loss   -     val MRR@10 {v0['macro_mrr10']:.4f}")
    train_langs = lang_arr[train_idx]
    group_arr = groups
    for epoch in range(1, a.epochs + 1):
        te = time.time()
        # Batches of one language: harder negatives, as the per-language evaluation.
        batches = []
        for l in sorted(set(train_langs)):
            rows = rng.permutation(train_idx[train_langs == l])
            # Hard negatives: a share of the pairs in batches of neighbours — the package
            # folders in a random order, so a batch holds code that shares its path and words.
            hard = int(len(rows) * a.hard_share)
            if hard >= a.batch:
                near = rows[:hard]
                rank = {g: r for r, g in enumerate(rng.permutation(sorted({group_arr[i] for i in near})))}
                near = near[np.argsort(np.array([rank[group_arr[i]] for i in near]), kind="stable")]
                for s in range(0, len(near) - a.batch // 4, a.batch):
                    batches.append(near[s : s + a.batch])
                rows = rows[hard:]
            for s in range(0, len(rows) - a.batch // 4, a.batch):
                batches.append(rows[s : s + a.batch])
        order = rng.permutation(len(batches))
        total_loss = 0.0
        for bi in order:
            rows = batches[bi]
            B = len(rows)
            gq = gather(qcsr, rows)
            gc = gather(ccsr, rows)
            if a.dropout > 0:
                gq = drop(gq, a.dropout, rng)
                gc = drop(gc, a.dropout, rng)
            uq, nq = pool(table, gq)
            uc, nc = pool(table, gc)
            sims = (uq @ uc.T) * a.scale
            # Symmetric softmax cross-entropy, target on the diagonal.
            pr = np.exp(sims - sims.max(axis=1, keepdims=True))
            pr /= pr.sum(axis=1, keepdims=True)
            pc = np.exp(sims - sims.max(axis=0, keepdims=True))
            pc /= pc.sum(axis=0, keepdims=True)
            diag = np.arange(B)
            loss = -0.5 * (np.log(pr[diag, diag] + 1e-12).mean() + np.log(pc[diag, diag] + 1e-12).mean())
            total_loss += float(loss)
            g = 0.5 * (pr + pc)
            g[diag, diag] -= 1.0
            g *= a.scale / B
            duq = g @ uc
            duc = g.T @ uq
            # Through the normalisation.
            dq = (duq - uq * (duq * uq).sum(axis=1, keepdims=True)) / nq
            dc = (duc - uc * (duc * uc).sum(axis=1, keepdims=True)) / nc
            ids = np.concatenate([gq[0], gc[0]])
            contrib = np.concatenate([dq[gq[2]] * gq[1][:, None], dc[gc[2]] * gc[1][:, None]])
            order_ids = np.argsort(ids, kind="stable")
            sid = ids[order_ids]
            starts = np.flatnonzero(np.r_[True, sid[1:] != sid[:-1]])
            urows = sid[starts]
            grad = np.add.reduceat(contrib[order_ids], starts, axis=0)
            # Lazy Adam on the touched rows.
            step += 1
            m1[urows] = b1 * m1[urows] + (1 - b1) * grad
            m2[urows] = b2 * m2[urows] + (1 - b2) * grad * grad
            lr_t = a.lr * math.sqrt(1 - b2**step) / (1 - b1**step)
            table[urows] -= lr_t * m1[urows] / (np.sqrt(m2[urows]) + eps)
        v = validate(table, qcsr, ccsr, val_by_lang)
        avg = total_loss / max(1, len(batches))
        per = "  ".join(f"{l} {v[l]['mrr10']:.3f}" for l in val_by_lang)
        print(
            f"epoch {epoch:2d}  loss {avg:.4f}  val MRR@10 {v['macro_mrr10']:.4f}  ({per})  "
            f"{time.time() - te:.0f} s",
            flush=True,
        )
        curve.append({"epoch": epoch, "loss": round(avg, 4), "val_macro_mrr10": v["macro_mrr10"]})
        if v["macro_mrr10"] > best["macro_mrr10"]:
            best, best_table, best_epoch, bad = v, table.copy(), epoch, 0
        else:
            bad += 1
            if bad >= a.patience:
                print(f"early stop: no gain for {a.patience} epochs; best epoch {best_epoch}")
                break

    # Fold IDF into the rows; add the unknown-token buckets (fixed random rows, never
    # trained: they only make a shared rare identifier count), their norm chosen on
    # validation; quantise, and check the quantised model on validation.
    folded = best_table * idf[:, None]
    q_plain = to_csr(queries, index, None)
    c_plain = to_csr(codes, index, None)
    vf = validate(folded, q_plain, c_plain, val_by_lang)
    print(f"best epoch {best_epoch}: float32 val MRR@10 {vf['macro_mrr10']:.4f} (unknown tokens skipped)")
    bucket_norm = 0.0
    table_out = folded
    if a.oov_buckets:
        q_csr = to_csr(queries, index, None, a.oov_buckets)
        c_csr = to_csr(codes, index, None, a.oov_buckets)
        noise = rng.standard_normal((a.oov_buckets, d)).astype(np.float32)
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        norms = np.linalg.norm(folded, axis=1)
        best_v = vf["macro_mrr10"]
        for pct in (50, 75, 90, 97):
            cand = float(np.percentile(norms, pct))
            v = validate(np.concatenate([folded, noise * cand]), q_csr, c_csr, val_by_lang)
            print(f"  unknown-token buckets at the norm of percentile {pct} ({cand:.2f}): val MRR@10 {v['macro_mrr10']:.4f}")
            if v["macro_mrr10"] > best_v:
                best_v, bucket_norm = v["macro_mrr10"], cand
        if bucket_norm > 0:
            table_out = np.concatenate([folded, noise * bucket_norm])
            vf = validate(table_out, q_csr, c_csr, val_by_lang)
        else:
            q_csr, c_csr = q_plain, c_plain
    else:
        q_csr, c_csr = q_plain, c_plain
    buckets = a.oov_buckets if bucket_norm > 0 else 0
    q, scale = quantize(table_out)
    deq = q.astype(np.float32) * scale[:, None]
    vq = validate(deq, q_csr, c_csr, val_by_lang)
    print(f"shipped ({buckets} buckets): float32 val MRR@10 {vf['macro_mrr10']:.4f}, int8 {vq['macro_mrr10']:.4f}")
    for l in val_by_lang:
        print(f"  {l:10s} MRR@10 {vq[l]['mrr10']:.4f}  R@5 {vq[l]['recall5']:.4f}  ({vq[l]['pairs']} pairs)")
    print(f"total {time.time() - t0:.0f} s")
    if a.no_write:
        return

    os.makedirs(a.out, exist_ok=True)
    # The tokenizer's answer on a fixed text (written by model/data.ts): the test checks that
    # the runtime tokenizer still gives it, so a tokenizer change cannot silently skew vectors.
    with open(os.path.join(a.cache, "tokenizer_probe.json"), encoding="utf-8") as f:
        probe = json.load(f)
    vec_bytes = q.tobytes() + scale.astype("<f4").tobytes()
    vocab_bytes = "\n".join(vocab).encode("utf-8")
    with open(os.path.join(a.out, "vectors.bin"), "wb") as f:
        f.write(vec_bytes)
    with open(os.path.join(a.out, "vocab.txt"), "wb") as f:
        f.write(vocab_bytes)
    data_manifest = {}
    dm_path = os.path.join(HERE, "data_manifest.json")
    if os.path.exists(dm_path):
        with open(dm_path, encoding="utf-8") as f:
            data_manifest = json.load(f)
    manifest = {
        "name": "codectx-code",
        "version": "1",
        "description": "codectx's static code-search embedding model: IDF-weighted mean of "
        "code-aware token vectors (tied table), unit-normalised.",
        "dimensions": d,
        "vocab_size": V,
        "oov_buckets": buckets,
        "format": {
            "vectors.bin": f"{V} + {buckets} rows x {d} int8 (IDF folded in; the last {buckets} rows are "
            "unknown-token buckets), then as many little-endian float32 row scales",
            "vocab.txt": "one token per line, in row order (tokens of src/search/tokens.ts codeTokens)",
            "pooling": "distinct tokens weighted (1 + ln count) * row scale; sum; L2-normalise",
            "unknown_tokens": "FNV-1a (UTF-16 code units) h of the token: row vocab_size + (h >>> 1) % oov_buckets, "
            "sign -1 when h is odd",
        },
        "sha256": hashlib.sha256(vec_bytes + vocab_bytes).hexdigest(),
        "tokenizer_probe": probe,
        "training": {
            "data": {
                "pairs_total": n,
                "train_pairs": int(len(train_idx)),
                "validation_pairs": int(len(val_idx)),
                "per_language": data_manifest.get("per_language"),
                "dropped": data_manifest.get("dropped"),
                "extraction": data_manifest.get("extraction"),
            },
            "hyper_parameters": {
                "dims": d,
                "max_vocab": a.max_vocab,
                "min_count": a.min_count,
                "batch": a.batch,
                "batches": "one language per batch",
                "hard_share": a.hard_share,
                "lr": a.lr,
                "optimizer": "lazy (sparse-row) Adam, beta1 0.9, beta2 0.999",
                "similarity_scale": a.scale,
                "loss": "symmetric in-batch softmax cross-entropy over scaled cosine similarities",
                "init": "normal(0, 0.1)",
                "max_code_tokens": a.max_code_tokens,
                "token_dropout": a.dropout,
                "epochs_max": a.epochs,
                "patience": a.patience,
                "seed": a.seed,
                "idf": "ln((N + 1) / (df + 1)) + 1 over training code texts",
                "oov_buckets": buckets,
                "oov_bucket_norm": round(bucket_norm, 4),
            },
            "best_epoch": best_epoch,
            "validation_curve": curve,
            "validation": {"float32": vf, "int8": vq, "bm25_same_tokens": bm25},
            "numpy": np.__version__,
            "seconds": round(time.time() - t0),
        },
        "sources": data_manifest.get("sources"),
    }
    with open(os.path.join(a.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    size = len(vec_bytes) + len(vocab_bytes)
    print(f"wrote {a.out}: {size / 1e6:.1f} MB, sha256 {manifest['sha256'][:16]}")


if __name__ == "__main__":
    main()
