// Types of server.mjs for the TypeScript walk-through (walkthrough.ts).
export interface World {
  url: string;
  apiKey: string;
  contentKey: string;
  kid: string;
  secret: string;
  pageId: string;
  templateId: string;
  dataDir: string;
  log(): string;
  stop(): Promise<void>;
}
export const binary: string;
export function cli(dataDir: string, ...args: string[]): string;
export function startServer(): Promise<World>;
