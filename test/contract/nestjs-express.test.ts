// The contract table on NestJS over Express (@nestjs/platform-express).
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { nestHarness } from './nestjs.js';
import { runContract } from './run.js';

runContract(
  nestHarness(
    'Nest on Express',
    () => new ExpressAdapter(),
    (host, status, detail) =>
      host.switchToHttp().getResponse<Response>().status(status).json({ detail }),
  ),
);
