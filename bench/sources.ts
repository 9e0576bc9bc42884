/**
 * Real code for the benches, fetched at run time into a cache (never committed): Debian
 * binary packages (`apt-get download` + `dpkg -x`, no system change), Debian source packages
 * (through a private apt configuration), npm tarballs (`npm pack`). The cache is
 * `$CODECTX_BENCH_CACHE` (default `$TMPDIR/codectx-bench`).
 *
 * @module
 */

const cache = Deno.env.get("CODECTX_BENCH_CACHE") ??
  `${Deno.env.get("TMPDIR") ?? "/tmp"}/codectx-bench`;

async function sh(cmd: string, cwd: string): Promise<void> {
  const out = await new Deno.Command("sh", { args: ["-c", cmd], cwd, stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${cmd} failed in ${cwd}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Whether a path exists. */
export const exists = (p: string) => Deno.stat(p).then(() => true, () => false);

/** A Debian binary package unpacked (no system change) into the cache. */
export async function deb(name: string): Promise<string> {
  const dir = `${cache}/deb/${name}`;
  if (!(await exists(`${dir}/x`))) {
    await Deno.mkdir(dir, { recursive: true });
    await sh(`apt-get download ${name} && dpkg -x ${name}_*.deb x`, dir);
  }
  return `${dir}/x`;
}

/**
 * A Debian source package unpacked into the cache, through a private apt configuration
 * with a `deb-src` line for the mirror the machine already uses (no system change).
 */
export async function debSource(name: string): Promise<string> {
  const dir = `${cache}/deb-src/${name}`;
  if (!(await exists(`${dir}/x`))) {
    await Deno.mkdir(`${dir}/lists/partial`, { recursive: true });
    await sh(
      `M=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' | awk '$2=="bookworm"{print $1; exit}')
printf 'deb-src %s bookworm main\\n' "$M" > src.list
O="-o Dir::Etc::SourceList=$PWD/src.list -o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists=$PWD/lists"
apt-get $O update >/dev/null && apt-get $O source --download-only ${name} >/dev/null 2>&1
mkdir -p x && tar xf "$(ls ${name}_*.orig.tar.* | grep -v "\\.asc$")" -C x`,
      dir,
    );
  }
  return `${dir}/x`;
}

/** An npm tarball unpacked into the cache. */
export async function npm(spec: string): Promise<string> {
  const dir = `${cache}/npm/${spec.replace(/[/@]/g, "_")}`;
  if (!(await exists(`${dir}/package`))) {
    await Deno.mkdir(dir, { recursive: true });
    await sh(`npm pack ${spec} --silent && tar xzf *.tgz`, dir);
  }
  return `${dir}/package`;
}
