/**
 * Runs in every engine test file (jest `setupFilesAfterEnv`): after the file's last test, stops
 * what the harness started in it (n8n-core's SSH client manager interval).
 */
import { runTeardowns } from '../teardown';

afterAll(runTeardowns);
