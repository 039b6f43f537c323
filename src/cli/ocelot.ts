/** Entry point when this module is executed directly (`node dist/src/cli/ocelot.js …`). */
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
