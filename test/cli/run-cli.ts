import { main } from '../../src/cli/main.js';

/** Run the `votal` command line in-process, capturing its streams. */
export async function runCli(argv: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    stdin: async () => stdin,
  });
  return { code, stdout, stderr };
}
