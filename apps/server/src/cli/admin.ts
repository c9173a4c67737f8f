import { ConfigError } from '../config';
import { adminProgram } from './admin-commands';

adminProgram()
  .parseAsync()
  .catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
