// SPDX-License-Identifier: GPL-3.0-or-later
// Retrylab's Node preload (`retrylab observe --proxy` puts it in NODE_OPTIONS=--require): Node 20 ignores
// HTTP_PROXY/HTTPS_PROXY for http, https and fetch, so this routes all three through the proxy named in
// RETRYLAB_PROXY_URL with CONNECT tunnels (as undici's proxy agent does, for http:// too). Trust of the
// Retrylab CA comes from NODE_EXTRA_CA_CERTS, set beside it. Hosts in NO_PROXY go direct. Written for
// Retrylab; it uses Node's own modules only.
'use strict';
const net = require('node:net');
const tls = require('node:tls');
const http = require('node:http');
const https = require('node:https');

const proxy = new URL(process.env.RETRYLAB_PROXY_URL || 'http://127.0.0.1:8080');
const noProxy = (process.env.NO_PROXY || process.env.no_proxy || '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

function bypassed(host) {
  const h = String(host).toLowerCase().replace(/^\[|\]$/g, '');
  return noProxy.some((entry) => entry === '*' || h === entry.replace(/^\./, '') || (entry.startsWith('.') ? h.endsWith(entry) : h.endsWith('.' + entry)));
}

function authorityOf(host, port) {
  const h = String(host).replace(/^\[|\]$/g, '');
  return (net.isIPv6(h) ? '[' + h + ']' : h) + ':' + port;
}

// Opens a CONNECT tunnel to HOST:PORT through the proxy; DONE(err, socket) once the proxy answered 2xx.
function tunnel(host, port, done) {
  const socket = net.connect(Number(proxy.port || 80), proxy.hostname.replace(/^\[|\]$/g, ''));
  let head = Buffer.alloc(0);
  let finished = false;
  const finish = (err, s) => {
    if (finished) return;
    finished = true;
    socket.removeListener('data', onData);
    done(err, s);
  };
  const onData = (chunk) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > 65536) { socket.destroy(); finish(new Error('retrylab proxy: answer to CONNECT too long')); }
      return;
    }
    const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
    const status = Number(statusLine.split(' ')[1]);
    if (status < 200 || status > 299) {
      socket.destroy();
      finish(new Error('retrylab proxy refused CONNECT ' + authorityOf(host, port) + ': ' + statusLine));
      return;
    }
    const rest = head.subarray(end + 4);
    if (rest.length) socket.unshift(rest);
    finish(null, socket);
  };
  socket.on('data', onData);
  socket.once('error', (err) => finish(err));
  socket.once('connect', () => {
    const authority = authorityOf(host, port);
    socket.write('CONNECT ' + authority + ' HTTP/1.1\r\nHost: ' + authority + '\r\n\r\n');
  });
  return socket;
}

function hostOf(options) {
  return options.host || options.hostname || 'localhost';
}

// http and https: every Agent (the global ones and those SDKs make) creates its sockets here.
const plainCreate = http.Agent.prototype.createConnection;
http.Agent.prototype.createConnection = function (options, callback) {
  const host = hostOf(options);
  if (bypassed(host) || options.socketPath) return plainCreate.call(this, options, callback);
  tunnel(host, options.port || 80, (err, socket) => callback(err, socket));
  return undefined;
};
const tlsCreate = https.Agent.prototype.createConnection;
https.Agent.prototype.createConnection = function (options, callback) {
  const host = hostOf(options);
  if (bypassed(host) || options.socketPath) return tlsCreate.call(this, options, callback);
  tunnel(host, options.port || 443, (err, socket) => {
    if (err) return callback(err);
    const name = String(host).replace(/^\[|\]$/g, '');
    const secure = tls.connect({ ...options, host: undefined, port: undefined, socket, servername: options.servername || (net.isIP(name) ? undefined : name) });
    callback(null, secure);
  });
  return undefined;
};

// fetch (Node's bundled undici): its global dispatcher's own class, given a connector that tunnels.
try {
  // Node 20 makes undici's global dispatcher on the first fetch; a data: URL makes it without any I/O.
  globalThis.fetch('data:,').catch(() => {});
  const key = Symbol.for('undici.globalDispatcher.1');
  const current = globalThis[key];
  if (current && typeof current.constructor === 'function') {
    const Agent = current.constructor;
    globalThis[key] = new Agent({
      connect(opts, callback) {
        const host = opts.hostname || opts.host;
        const tlsWanted = opts.protocol === 'https:';
        const port = opts.port || (tlsWanted ? 443 : 80);
        if (bypassed(host)) {
          const direct = tlsWanted ? tls.connect({ host, port, servername: opts.servername || host, ALPNProtocols: ['http/1.1'] }) : net.connect(port, host);
          direct.once(tlsWanted ? 'secureConnect' : 'connect', () => callback(null, direct));
          direct.once('error', (e) => callback(e));
          return;
        }
        tunnel(host, port, (err, socket) => {
          if (err) return callback(err);
          if (!tlsWanted) return callback(null, socket);
          const name = String(host).replace(/^\[|\]$/g, '');
          const secure = tls.connect({ socket, servername: opts.servername || (net.isIP(name) ? undefined : name), ALPNProtocols: ['http/1.1'] });
          secure.once('secureConnect', () => callback(null, secure));
          secure.once('error', (e) => callback(e));
        });
      },
    });
  }
} catch (err) {
  process.emitWarning('retrylab: fetch is not routed through the proxy: ' + err.message);
}
