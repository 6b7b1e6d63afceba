-- Gate "stopped": an attempt or run that ended before its gate was decided (a cancel, an interruption), with no
-- required check failed by then. A finished run's gate is no longer left "pending".
-- AlterEnum
ALTER TYPE "Gate" ADD VALUE 'stopped';
