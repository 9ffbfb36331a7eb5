// Given to a vault process with `--import`: prints `package loaded: <name>` on stderr the first
// time a module of each package under node_modules is loaded, so a test can tell which
// libraries a start (or a request) brought into memory.
import { registerHooks } from 'node:module';

const seen = new Set<string>();

registerHooks({
  load(url, context, nextLoad) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match && !seen.has(match[1]!)) {
      seen.add(match[1]!);
      process.stderr.write(`package loaded: ${match[1]}\n`);
    }
    return nextLoad(url, context);
  },
});
