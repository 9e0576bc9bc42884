/**
 * The real projects of the assistant bench, unpacked at run time (never committed): a Debian
 * source package, Debian packages that ship their sources (`apt-get download` + `dpkg -x`) and
 * an npm tarball (`npm pack`), fetched through `bench/sources.ts`. Each is copied to `OUT/<name>`, the folder
 * the questions' paths are relative to. Versions are pinned: a key is written against one.
 *
 * Run: `deno run -A bench/assistant/projects.ts --out DIR [--only django,chi]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { debSource, exists, npm } from "../sources.ts";

/** A project: where it comes from and which folder of the package is the project. */
export interface BenchProject {
  name: string;
  language: string;
  /**
   * `deb:NAME=VERSION` (a binary package that ships sources), `deb-src:NAME` (a source
   * package: its upstream tarball, whose folder names the version) or `npm:NAME@VERSION`.
   */
  source: string;
  /** The project's folder inside the unpacked package. */
  root: string;
}

/** The projects, of five languages and sizes (django and cesium hold more than 1,000 files). */
export const PROJECTS: BenchProject[] = [
  // The Debian source package: Django with its tests and docs (2,697 .py of 6,484 files).
  { name: "django", language: "python", source: "deb-src:python-django", root: "Django-3.2.25" },
  { name: "rxjs", language: "typescript", source: "npm:rxjs@7.8.1", root: "src" },
  {
    name: "chi",
    language: "go",
    source: "deb:golang-github-go-chi-chi-dev=5.0.7-1",
    root: "usr/share/gocode/src/github.com/go-chi/chi",
  },
  {
    name: "toml",
    language: "rust",
    source: "deb:librust-toml-dev=0.5.11-1",
    root: "usr/share/cargo/registry/toml-0.5.11",
  },
  // CesiumJS's engine as its npm package ships it: authored ES modules (1,033 .js) and the
  // shaders its build turned into .js strings (320), 1,353 .js files under Source/.
  { name: "cesium", language: "javascript", source: "npm:@cesium/engine@26.3.0", root: "Source" },
  // OpenStack Nova (compute) as Debian ships it, its unit and functional tests included
  // (1,484 .py of 2,177 files: 682 of the package, 802 under nova/tests).
  {
    name: "nova",
    language: "python",
    source: "deb:python3-nova=2:26.2.2-1~deb12u5",
    root: "usr/lib/python3/dist-packages",
  },
  // tmux 3.3a, the Debian source package's upstream tarball (bookworm 3.3a-3): C, 208 files,
  // 179 .c and 9 .h (compat/ and fuzz/ included) and the yacc grammar with its generated .c.
  { name: "tmux", language: "c", source: "deb-src:tmux", root: "tmux-3.3a" },
  // Git 2.39 (bookworm), the Debian source package's upstream tarball: C and shell, its test
  // suite (t/) and documentation included.
  { name: "git", language: "c", source: "deb-src:git", root: "git-2.39.5" },
  {
    name: "sqlalchemy",
    language: "python",
    source: "deb:python3-sqlalchemy=1.4.46+ds1-1",
    root: "usr/lib/python3/dist-packages",
  },
  {
    name: "gin",
    language: "go",
    source: "deb:golang-github-gin-gonic-gin-dev=1.8.1-1",
    root: "usr/share/gocode/src/github.com/gin-gonic/gin",
  },
  // Celery 5.2.6 as Debian ships it (python3-celery): the folder holding celery/ (so its absolute
  // imports resolve, as in a checkout), no tests.
  {
    name: "celery",
    language: "python",
    source: "deb:python3-celery=5.2.6-5",
    root: "usr/lib/python3/dist-packages",
  },
  // HashiCorp Raft 1.1.2 as Debian ships it (golang-github-hashicorp-raft-dev).
  {
    name: "raft",
    language: "go",
    source: "deb:golang-github-hashicorp-raft-dev=1.1.2-1",
    root: "usr/share/gocode/src/github.com/hashicorp/raft",
  },
  // PM2 5.4.3 as npm ships it: CommonJS modules, lib/ and the entry files.
  { name: "pm2", language: "javascript", source: "npm:pm2@5.4.3", root: "." },
  // MobX 6.13.5 as npm ships it: its TypeScript sources under src/.
  { name: "mobx", language: "typescript", source: "npm:mobx@6.13.5", root: "src" },
  // The fourth run's projects (chosen at e12b058, checked against model/sources.ts and every
  // search bench's sets): Redis 7.0.15 (bookworm's source package: src/, deps/, tests/ — C),
  // Scrapy 2.8.0 as Debian ships it, the NATS server 2.9.10 (Go) and mysql2 3.11.0 (CommonJS).
  { name: "redis", language: "c", source: "deb-src:redis", root: "redis-7.0.15" },
  {
    name: "scrapy",
    language: "python",
    source: "deb:python3-scrapy=2.8.0-2",
    root: "usr/lib/python3/dist-packages",
  },
  {
    name: "nats",
    language: "go",
    source: "deb:golang-github-nats-io-nats-server-dev=2.9.10-1",
    root: "usr/share/gocode/src/github.com/nats-io/nats-server",
  },
  { name: "mysql2", language: "javascript", source: "npm:mysql2@3.11.0", root: "." },
  // The fifth run's projects (chosen at c7c18cd, checked as the fourth's): curl 7.88.1 (bookworm's
  // source package: lib/, src/, tests/, docs/ — C), pydantic 1.10.4 as Debian ships it, and hapi
  // 21.3.10 (CommonJS, lib/).
  { name: "curl", language: "c", source: "deb-src:curl", root: "curl-7.88.1" },
  {
    name: "pydantic",
    language: "python",
    source: "deb:python3-pydantic=1.10.4-1+deb12u1",
    root: "usr/lib/python3/dist-packages",
  },
  { name: "hapi", language: "javascript", source: "npm:@hapi/hapi@21.3.10", root: "." },
  // containerd 1.6.20 (bookworm), the Debian source package's upstream tarball (vendor/ taken
  // out by Debian): Go, 1,595 files, 1,313 .go (integration tests and docs included).
  {
    name: "containerd",
    language: "go",
    source: "deb-src:containerd",
    root: "containerd-1.6.20",
  },
  {
    name: "h2",
    language: "rust",
    source: "deb:librust-h2-dev=0.3.13-2",
    root: "usr/share/cargo/registry/h2-0.3.13",
  },
  {
    name: "alembic",
    language: "python",
    source: "deb:python3-alembic=1.8.1-2",
    root: "usr/lib/python3/dist-packages",
  },
  // The seventh run's: OpenSSL 3.0.20 (bookworm), the source package's upstream tarball — C and
  // Perl, 4,666 files (crypto/, ssl/, apps/, providers/, test/, doc/); ansible-core 2.14.18 as
  // Debian ships it (ansible/ and ansible_test/, 998 files); terser 5.36.0 as npm ships it (lib/
  // ES modules, bin/, tools/, a built dist/); minio-go 7.0.46 (Go, 120 files).
  { name: "openssl", language: "c", source: "deb-src:openssl", root: "openssl-3.0.20" },
  {
    name: "ansible",
    language: "python",
    source: "deb:ansible-core=2.14.18-0+deb12u2",
    root: "usr/lib/python3/dist-packages",
  },
  { name: "terser", language: "javascript", source: "npm:terser@5.36.0", root: "." },
  {
    name: "miniogo",
    language: "go",
    source: "deb:golang-github-minio-minio-go-v7-dev=7.0.46-1",
    root: "usr/share/gocode/src/github.com/minio/minio-go",
  },
  // The eighth run's: OpenStack Cinder 21.3.1 (block storage) as Debian ships it, its tests in
  // (1,417 files); nginx 1.22.1, the source package's upstream tarball (C, 403 files); nock
  // 13.5.6 as npm ships it (an HTTP mocking library, lib/ JavaScript).
  {
    name: "cinder",
    language: "python",
    source: "deb:python3-cinder=2:21.3.1-1~deb12u1",
    root: "usr/lib/python3/dist-packages",
  },
  { name: "nginx", language: "c", source: "deb-src:nginx", root: "nginx-1.22.1" },
  { name: "nock", language: "javascript", source: "npm:nock@13.5.6", root: "." },
];

/** A Debian package of one version (`NAME=VERSION`) unpacked under `cache`; its root folder. */
async function debPinned(spec: string, cache: string): Promise<string> {
  const dir = `${cache}/${spec.replace(/[^\w.+-]/g, "_")}`;
  if (!(await exists(`${dir}/x`))) {
    await Deno.mkdir(dir, { recursive: true });
    const out = await new Deno.Command("sh", {
      args: ["-c", `apt-get download '${spec}' && dpkg -x *.deb x`],
      cwd: dir,
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`apt-get download ${spec}: ${new TextDecoder().decode(out.stderr)}`);
    }
  }
  return `${dir}/x`;
}

/** Unpacks `p` (from `out/.cache` when it is there) and copies its folder to `out/<name>`. */
export async function unpack(p: BenchProject, out: string): Promise<string> {
  const dest = `${out}/${p.name}`;
  if (await exists(dest)) return dest;
  const colon = p.source.indexOf(":");
  const [kind, spec] = [p.source.slice(0, colon), p.source.slice(colon + 1)];
  const base = kind === "deb"
    ? await debPinned(spec, `${out}/.cache`)
    : kind === "deb-src"
    ? await debSource(spec)
    : await npm(spec);
  await Deno.mkdir(out, { recursive: true });
  const cp = await new Deno.Command("cp", { args: ["-r", `${base}/${p.root}`, dest] }).output();
  if (!cp.success) throw new Error(`cp ${base}/${p.root}: ${new TextDecoder().decode(cp.stderr)}`);
  return dest;
}

/** Files under `dir`, counted. */
async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.isDirectory) n += await countFiles(`${dir}/${e.name}`);
    else if (e.isFile) n++;
  }
  return n;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { out: { type: "string" }, only: { type: "string" } },
  });
  if (!values.out) {
    console.error("usage: deno run -A bench/assistant/projects.ts --out DIR [--only django,chi]");
    Deno.exit(2);
  }
  const only = values.only?.split(",");
  for (const p of PROJECTS.filter((p) => !only || only.includes(p.name))) {
    const dir = await unpack(p, values.out);
    console.log(`${p.name}\t${p.language}\t${await countFiles(dir)} files\t${dir}\t${p.source}`);
  }
}
