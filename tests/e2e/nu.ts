/**
 * The W3C Nu HTML checker (npm's vnu-jar, run by Debian's Java): every page's HTML checked in one run, since the JVM's
 * start is most of a run's time.
 */
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const VNU_JAR = createRequire(import.meta.url).resolve("vnu-jar/build/dist/vnu.jar");

export interface NuMessage {
  page: string;
  type: string;
  subType?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/** The errors Nu finds in each page's HTML, named by the page's path. */
export async function nuErrors(pages: { path: string; html: string }[]): Promise<NuMessage[]> {
  const dir = await mkdtemp(join(tmpdir(), "nu-"));
  try {
    const files = await Promise.all(
      pages.map(async ({ html }, index) => {
        const file = join(dir, `${index}.html`);
        await writeFile(file, html);
        return file;
      }),
    );
    const { stderr } = await promisify(execFile)("java", ["-Xss4m", "-jar", VNU_JAR, "--format", "json", "--exit-zero-always", ...files], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const { messages } = JSON.parse(stderr) as { messages: (Omit<NuMessage, "page"> & { url: string })[] };
    return messages
      .filter((message) => message.type === "error" || message.subType === "fatal")
      .map(({ url, ...message }) => ({ ...message, page: pages[Number(/(\d+)\.html$/.exec(url)![1])]!.path }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
