/**
 * The question against a candidate's own name in the embedder's space: the cosine of the
 * query vector with the vector codectx-code makes of the name alone (a feature of the
 * second stage, `rerank.ts`). "Encodes a public RSA key as an OpenSSH file" is nearer
 * `publicKeyToOpenSSH` than `privateKeyToOpenSSH` whatever their bodies share.
 *
 * A name's tokens are its row's name field in the lexical index (the same tokens the model
 * reads); a per-index map takes each lexical term to the model's row. Both the map and the
 * model's rows are on shared memory, so a search worker scores exactly as the main thread.
 *
 * @module
 */

import type { CodectxCodeModel, TokenVectors } from "./codectx_code.ts";
import type { LexicalIndex } from "./lexical.ts";

/** What a name's vector is made from: the model's rows, and each lexical term's row. */
export interface NameVectors {
  tokens: TokenVectors;
  /** Per lexical term id, the model's row for it (-1: a token the model does not know). */
  rowOfTerm: Int32Array;
}

const made = new WeakMap<LexicalIndex, { model: CodectxCodeModel; names: NameVectors }>();

/** Whether an embedder is codectx-code's model (the one whose rows a name is made of). */
export function hasTokenVectors(e: unknown): e is CodectxCodeModel {
  const m = e as Partial<CodectxCodeModel> | null;
  return typeof m?.rowOf === "function" && m.tokens !== undefined;
}

/**
 * The name vectors of a lexical index under a model, made once per index (its name fields'
 * terms looked up in the model's vocabulary).
 */
export function nameVectorsFor(lexical: LexicalIndex, model: CodectxCodeModel): NameVectors {
  const hit = made.get(lexical);
  if (hit?.model === model) return hit.names;
  const rowOfTerm = lexical.mapNameTerms((t) => model.rowOf(t));
  const shared = new Int32Array(new SharedArrayBuffer(rowOfTerm.byteLength));
  shared.set(rowOfTerm);
  const names = { tokens: model.tokens, rowOfTerm: shared };
  made.set(lexical, { model, names });
  return names;
}

let acc = new Float64Array(0);

/**
 * The cosine (0 when negative) of a unit query vector with the vector of a name whose
 * lexical term ids are `terms`: each known token's row times its scale, summed, as
 * codectx-code embeds a text of those tokens once each; 0 when it knows none.
 */
export function nameCosine(names: NameVectors, terms: Uint32Array, qv: Float32Array): number {
  const { dimensions: d, rows, scales } = names.tokens;
  if (qv.length !== d) return 0;
  if (acc.length !== d) acc = new Float64Array(d);
  acc.fill(0);
  let any = false;
  for (const g of terms) {
    const r = names.rowOfTerm[g];
    if (r === undefined || r < 0) continue;
    any = true;
    const w = scales[r];
    const base = r * d;
    for (let j = 0; j < d; j++) acc[j] += w * rows[base + j];
  }
  if (!any) return 0;
  let dot = 0, norm = 0;
  for (let j = 0; j < d; j++) {
    dot += acc[j] * qv[j];
    norm += acc[j] * acc[j];
  }
  return norm > 0 ? Math.max(0, dot / Math.sqrt(norm)) : 0;
}
