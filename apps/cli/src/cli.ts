import path from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { CliFailure, exitCodes, exitCodesHelp, withoutSecrets } from './failures';
import { progressView } from './progress-view';
import { receive, receiveLine, type ReceiveSource } from './receive';
import { send } from './send';
import { sendOptionsOf, type RawSendOptions } from './send-options';

const resumeHelp = `
Resuming:
  What is stored is recorded as it happens in $XDG_STATE_HOME/filerunner/uploads/<host>.json
  (~/.local/state when XDG_STATE_HOME is unset). After Ctrl-C or a failure, the same command
  (the same files, contract and --name) continues the same package and sends only what is
  missing; --to, --message, --pin and --days of the first run stay. --no-resume starts anew.

Output:
  Progress and messages go to stderr (a bar on a terminal, a line every 10 s otherwise);
  when the package is sent its slug alone goes to stdout, for scripts.

Example:
  export FILERUNNER_URL=https://files.example.com FILERUNNER_API_KEY=fr_...
  filerunner send --contract acme --to editor@acme.example,qc@post.example \\
    --name "Ep 104 conform" --days 7 ./EP104/`;

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Turns SIGINT and SIGTERM into a clean stop; a second one quits at once. */
function stopOnSignals(say: (line: string) => void): AbortSignal {
  const stop = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    const kind = signal === 'SIGINT' ? 'interrupted' : 'terminated';
    if (stop.signal.aborted) process.exit(exitCodes[kind]);
    say(
      `\nStopping (${signal}); what is stored stays recorded. Press Ctrl-C again to quit at once.`,
    );
    stop.abort(new CliFailure(kind, signal === 'SIGINT' ? 'Interrupted' : 'Terminated'));
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  return stop.signal;
}

function program(run: { exitCode: number }): Command {
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const root = new Command('filerunner')
    .description('Send packages of files through FileRunner from a terminal or a script.')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError('(filerunner send --help shows every option)');

  root
    .command('send')
    .description(
      'Send files and folders as one package; folders keep their name and inner folders.',
    )
    .argument('<paths...>', 'files and folders to send')
    .addOption(
      new Option('--url <url>', 'the FileRunner address, e.g. https://files.example.com').env(
        'FILERUNNER_URL',
      ),
    )
    .addOption(
      new Option(
        '--api-key <key>',
        'an API key of the sender (the variable keeps it out of ps)',
      ).env('FILERUNNER_API_KEY'),
    )
    .option('--contract <slug>', 'the contract to send in')
    .option('--to <addresses>', 'recipients, comma-separated (may be repeated)', collect)
    .option('--name <name>', 'the package name')
    .option('--message <text>', 'a message to the recipients')
    .option('--pin', 'recipients prove a PIN sent to their mobile, where the contract allows it')
    .option('--days <n>', 'days recipients can download, from now (at most 15)', '10')
    .option('--no-resume', 'start a new package even if the same upload was interrupted')
    .option('--quiet', 'no progress, only errors and the slug')
    .addHelpText('after', `${exitCodesHelp}\n${resumeHelp}`)
    .action(async (paths: string[], raw: RawSendOptions) => {
      const options = sendOptionsOf(paths, raw);
      const signal = stopOnSignals(say);
      const progress = progressView({ stream: process.stderr, quiet: options.quiet });
      const slug = await send(options, { say: options.quiet ? () => {} : say, progress, signal });
      process.stdout.write(`${slug}\n`);
      run.exitCode = exitCodes.sent;
    });
  root
    .command('receive')
    .description('Receive a package into a folder: unpacked, in parallel ranges, verified.')
    .argument(
      '[link-or-package]',
      "the recipient's link (…/inbox/external/<package>?key=…), or a package slug with --url and --api-key",
    )
    .addOption(new Option('--url <url>', 'the FileRunner address').env('FILERUNNER_URL'))
    .addOption(new Option('--api-key <key>', 'an API key of a recipient').env('FILERUNNER_API_KEY'))
    .option(
      '--out <dir>',
      'the folder to receive into (default: a new folder named after the package, in the current one)',
    )
    .option('--overwrite', 'replace files already in --out that filerunner did not write')
    .option('--tar', "keep the package's .tar instead of unpacking it")
    .option('--quiet', 'no progress, only errors')
    .addHelpText('after', receiveHelp)
    .action(async (target: string | undefined, raw: RawReceiveOptions) => {
      const signal = stopOnSignals(say);
      const source = receiveSourceOf(target, raw);
      const quietSay = raw.quiet ? () => {} : say;
      let lastAt = 0;
      await receive(
        {
          source,
          ...(raw.out === undefined ? {} : { out: path.resolve(raw.out) }),
          parent: process.cwd(),
          tar: raw.tar === true,
          overwrite: raw.overwrite === true,
        },
        {
          say: quietSay,
          signal,
          // A line every 10 s at most: readable in a log, alive on a terminal.
          onProgress: (progress) => {
            if (Date.now() - lastAt < 10_000 && progress.receivedBytes < progress.totalBytes)
              return;
            lastAt = Date.now();
            quietSay(receiveLine(progress));
          },
        },
      );
      run.exitCode = exitCodes.sent;
    });
  return root;
}

interface RawReceiveOptions {
  url?: string;
  apiKey?: string;
  out?: string;
  overwrite?: boolean;
  tar?: boolean;
  quiet?: boolean;
}

const receiveHelp = `
Where the files go:
  Without --out, into a new folder named after the package in the current folder
  ("Ep 104", or "Ep 104 (2)" when that name is taken). filerunner never replaces a file it
  did not write: when --out already holds one of the package's names, it stops before writing
  anything and lists them (--overwrite replaces them). It never writes through a symbolic link
  already in the folder, and refuses a package whose names would leave the folder on some
  system (\\, C:, .., CON, NUL, a trailing dot or space) or name one file twice.

Exit codes: 0 every file received and verified; 5 the download stopped, files failed or
could not be verified, or the folder or the package's names were refused (each is named);
2 bad arguments; 3 authentication; 130 Ctrl-C.
After Ctrl-C or a crash, the same command in the same folder continues from what is already
there, in the same package folder (ledgers in $XDG_STATE_HOME/filerunner/downloads/<host>.json).
Once every file is verified, the server's signed delivery receipt is saved beside them as
<package>.receipt.jws.`;

/** A link, or a slug with --url and --api-key. */
function receiveSourceOf(target: string | undefined, raw: RawReceiveOptions): ReceiveSource {
  if (!target) throw new CliFailure('badArguments', 'Name a package link, or a package slug.');
  if (/^https?:\/\//.test(target)) return { link: target };
  if (!raw.url || !raw.apiKey) {
    throw new CliFailure('badArguments', 'A package slug needs --url and --api-key.');
  }
  return { url: raw.url, apiKey: raw.apiKey, slug: target };
}

/** Runs the command line; answers the exit code after saying what went wrong, if anything. */
export async function main(argv: string[]): Promise<number> {
  const run = { exitCode: exitCodes.unexpected as number };
  try {
    await program(run).parseAsync(argv);
    return run.exitCode;
  } catch (error) {
    // Help and --version end commander with 0; its other errors are bad arguments, said already.
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : exitCodes.badArguments;
    }
    if (error instanceof CliFailure) {
      process.stderr.write(`filerunner: ${withoutSecrets(error.message)}\n`);
      return error.exitCode;
    }
    const unexpected = String((error as Error)?.stack ?? error);
    process.stderr.write(`filerunner: unexpected error: ${withoutSecrets(unexpected)}\n`);
    return exitCodes.unexpected;
  }
}
