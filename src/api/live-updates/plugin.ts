import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sessionsAndTokens } from '../api-tokens/socket-lifetimes';
import { LiveUpdateHub } from './live-update-hub';

declare module 'fastify' {
  interface FastifyInstance {
    hub: LiveUpdateHub;
  }
}

/**
 * The websocket hub, following every stream's events, and its watch on sign-in sessions and API tokens (a
 * socket lives as long as the session or token it was opened with): started with the app, closed with it.
 */
export default fp(
  async (app: FastifyInstance) => {
    const hub = new LiveUpdateHub(
      app.store,
      app.sql,
      sessionsAndTokens(app.sessionStore, app.apiTokens),
      app.serverInstance,
    );
    app.decorate('hub', hub);
    // What follows every stream's events to the browsers.
    app.followers.follow(
      'websocket pushes: each watching socket, at its next position',
      'every',
      (events, from) => hub.push(events, from),
    );
    app.followers.follow(
      "websocket notices: a removed member's sockets closed, a flow's watchers told of a start, inboxes told of a review",
      'first',
      (events) => hub.actOn(events),
    );
    await hub.start();
    app.addHook('onClose', () => hub.close());
  },
  {
    name: 'live-updates',
    dependencies: ['auth', 'server-instance', 'commands'],
    decorators: { fastify: ['store', 'sql', 'sessionStore', 'apiTokens'] },
  },
);
