package io.ferry.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A userspace WAN in front of a loopback server ({@code tc netem} is not available here): every connection gets a
 * one-way delay in each direction and its own bandwidth cap, as one stream to a distant object store does (measured
 * at 49–134 MB/s). Bytes pass unchanged, so signatures stay valid. For benchmarks, not tests.
 *
 * <p>One event-loop thread carries every connection, both ways: a chunk read from one side is stamped with its
 * arrival and written to the other side once the delay has passed, as fast as the connection's token bucket allows.
 * A network costs the hosts at its ends no CPU; an emulator on the same two cores as the tools must cost as little as
 * it can, so it copies through pooled direct buffers and never hands a chunk from one thread to another (the first
 * version, two threads and a queue per direction, spent most of its 4–8 CPU-s per 2 GiB switching threads:
 * bench/results/README.md, round 6). A direction holds at most {@link #MAX_PENDING} bytes; beyond that it stops
 * reading and TCP's flow control holds the sender back, as a full bottleneck queue does.
 *
 * <p>A link cap, when given, is shared by every connection in each direction (a site's uplink to the provider): a
 * chunk goes once both its connection's bucket and the link's hold the tokens for it; the loop starts each round at the
 * next direction, so no connection keeps the link to itself.
 *
 * <p>Usage: {@code WanEmulator [<listen-host>:]<listen-port> [<target-host>:]<target-port> <MB/s per connection>
 * <one-way delay ms> [<link MB/s>]} (hosts default to loopback).
 */
public final class WanEmulator implements AutoCloseable {
  static final int CHUNK = 256 * 1024;
  static final int MAX_PENDING = 4 << 20;
  /** The token bucket's depth: after an idle spell a connection may send this much at once, then at its cap. */
  static final int BURST = 64 * 1024;
  /** Free buffers kept for reuse (64 MiB); more are left to the collector. */
  private static final int MAX_POOLED = 256;
  /** What a backlogged connection may keep of what it earned while the loop was late. */
  static final int CATCH_UP = 1 << 20;
  /** Do not wake to send less than this (unless the chunk's rest is smaller): fewer wake-ups, the same average rate. */
  private static final int QUANTUM = 16 * 1024;

  private final ServerSocketChannel server;
  private final Selector selector;
  private final InetSocketAddress target;
  private final double bytesPerNano;
  private final long delayNanos;
  private final List<Direction> directions = new ArrayList<>();
  /** The link's tokens toward the server and back; null: no link cap. */
  private final Bucket linkUp;
  private final Bucket linkDown;
  private int firstPumped;
  private final ArrayDeque<ByteBuffer> pool = new ArrayDeque<>();
  private final Thread loop;

  public WanEmulator(int listenPort, int targetPort, double megabytesPerSecond, long oneWayDelayMillis) throws IOException {
    this(listenPort, targetPort, megabytesPerSecond, oneWayDelayMillis, 0);
  }

  /** @param linkMegabytesPerSecond the cap every connection shares in each direction; 0: none */
  public WanEmulator(int listenPort, int targetPort, double megabytesPerSecond, long oneWayDelayMillis, double linkMegabytesPerSecond)
      throws IOException {
    this(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort),
        new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), megabytesPerSecond, oneWayDelayMillis, linkMegabytesPerSecond);
  }

  /** On other addresses than loopback (bench/cluster.sh: the hosts' namespaces reach it on the root side of their links). */
  public WanEmulator(InetSocketAddress listen, InetSocketAddress target, double megabytesPerSecond, long oneWayDelayMillis,
      double linkMegabytesPerSecond) throws IOException {
    this.linkUp = linkMegabytesPerSecond > 0 ? new Bucket(linkMegabytesPerSecond * 1e6 / 1e9) : null;
    this.linkDown = linkMegabytesPerSecond > 0 ? new Bucket(linkMegabytesPerSecond * 1e6 / 1e9) : null;
    this.target = target;
    this.bytesPerNano = megabytesPerSecond * 1e6 / 1e9;
    this.delayNanos = oneWayDelayMillis * 1_000_000L;
    this.selector = Selector.open();
    this.server = ServerSocketChannel.open();
    server.bind(listen, 200);
    server.configureBlocking(false);
    server.register(selector, SelectionKey.OP_ACCEPT);
    loop = new Thread(this::run, "wan-loop");
    loop.setDaemon(true);
    loop.start();
  }

  public int port() {
    return server.socket().getLocalPort();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4 && args.length != 5) {
      System.err.println("usage: WanEmulator [<listen-host>:]<listen-port> [<target-host>:]<target-port> <MB/s per connection>"
          + " <one-way delay ms> [<link MB/s>]");
      System.exit(2);
    }
    double link = args.length == 5 ? Double.parseDouble(args[4]) : 0;
    try (WanEmulator wan = new WanEmulator(address(args[0]), address(args[1]), Double.parseDouble(args[2]), Long.parseLong(args[3]),
        link)) {
      System.out.println("WAN emulator on " + args[0] + " -> " + args[1] + ", " + args[2] + " MB/s per connection, " + args[3]
          + " ms each way" + (link > 0 ? ", a link of " + link + " MB/s each way" : ""));
      Thread.currentThread().join();
    }
  }

  /** host:port, or a port on loopback. */
  private static InetSocketAddress address(String spec) {
    int colon = spec.lastIndexOf(':');
    return colon < 0 ? new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(spec))
        : new InetSocketAddress(spec.substring(0, colon), Integer.parseInt(spec.substring(colon + 1)));
  }

  private void run() {
    try {
      while (selector.isOpen()) {
        long wait = nextWake(System.nanoTime());
        if (wait < 0) {
          selector.select();
        } else if (wait == 0) {
          selector.selectNow();
        } else {
          selector.select(Math.max(1, (wait + 999_999) / 1_000_000));
        }
        long now = System.nanoTime();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (!key.isValid()) continue;
          if (key.isAcceptable()) {
            accept();
          } else if (key.isReadable()) {
            Direction d = (Direction) key.attachment();
            try {
              d.read(now);
            } catch (IOException e) {
              d.connection.close();
            }
          }
        }
        if (linkUp != null) {
          linkUp.refill(now);
          linkDown.refill(now);
        }
        int count = directions.size();
        firstPumped = count == 0 ? 0 : (firstPumped + 1) % count;
        for (int k = 0; k < count; k++) {
          Direction d = directions.get((firstPumped + k) % count);
          try {
            d.pump(now);
          } catch (IOException e) {
            d.connection.close();
          }
        }
        directions.removeIf(d -> d.connection.closed);
      }
    } catch (IOException | ClosedSelectorException e) {
      // closed
    } finally {
      for (Direction d : List.copyOf(directions)) d.connection.close();
    }
  }

  /** Nanoseconds until some direction can send again: 0 now, -1 never (only new bytes can wake the loop). */
  private long nextWake(long now) {
    long wake = -1;
    for (Direction d : directions) {
      long at = d.sendableAt(now);
      if (at >= 0 && (wake < 0 || at < wake)) wake = at;
    }
    return wake < 0 ? -1 : Math.max(0, wake - now);
  }

  /** Connects a new client to the target; a connection that fails to set up is closed, the loop goes on. */
  private void accept() throws IOException {
    SocketChannel client = server.accept();
    if (client == null) return;
    SocketChannel upstream = null;
    try {
      upstream = SocketChannel.open(target); // loopback: connects at once
      Connection c = new Connection(client, upstream);
      for (SocketChannel ch : List.of(client, upstream)) {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.configureBlocking(false);
      }
      Direction up = new Direction(c, client, upstream, linkUp);
      Direction down = new Direction(c, upstream, client, linkDown);
      up.key = client.register(selector, SelectionKey.OP_READ, up);
      down.key = upstream.register(selector, SelectionKey.OP_READ, down);
      c.directions = List.of(up, down);
      directions.add(up);
      directions.add(down);
    } catch (IOException e) {
      // the target refused, or the client left already: the client sees its connection close
      client.close();
      if (upstream != null) upstream.close();
    }
  }

  private ByteBuffer buffer() {
    ByteBuffer b = pool.poll();
    return b != null ? b.clear() : ByteBuffer.allocateDirect(CHUNK);
  }

  private void recycle(ByteBuffer b) {
    if (pool.size() < MAX_POOLED) pool.push(b);
  }

  private final class Connection {
    final SocketChannel a;
    final SocketChannel b;
    List<Direction> directions = List.of();
    boolean closed;

    Connection(SocketChannel a, SocketChannel b) {
      this.a = a;
      this.b = b;
    }

    void close() {
      if (closed) return;
      closed = true;
      for (Direction d : directions) d.release();
      for (SocketChannel ch : List.of(a, b)) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }
  }

  /** The link's token bucket for one direction, refilled once per round of the loop. */
  private static final class Bucket {
    final double bytesPerNano;
    double tokens = CATCH_UP;
    long refilled = System.nanoTime();

    Bucket(double bytesPerNano) {
      this.bytesPerNano = bytesPerNano;
    }

    void refill(long now) {
      tokens = Math.min(CATCH_UP, tokens + (now - refilled) * bytesPerNano);
      refilled = now;
    }
  }

  /** One way of a connection: bytes read from {@code from}, held for the delay, written to {@code to} at the cap. */
  private final class Direction {
    record Chunk(ByteBuffer bytes, long due) {}

    final Connection connection;
    final SocketChannel from;
    final SocketChannel to;
    final Bucket link;
    final ArrayDeque<Chunk> pending = new ArrayDeque<>();
    SelectionKey key;
    long pendingBytes;
    boolean eof;
    boolean shut;
    double tokens = BURST;
    long refilled = System.nanoTime();
    boolean backlogged;
    boolean blocked;

    Direction(Connection connection, SocketChannel from, SocketChannel to, Bucket link) {
      this.connection = connection;
      this.from = from;
      this.to = to;
      this.link = link;
    }

    void read(long now) throws IOException {
      long due = now + delayNanos;
      while (pendingBytes < MAX_PENDING) {
        // Bytes read within a millisecond of the last chunk's join it (released at most that much early): a chunk per
        // small read would hold a whole buffer for a few bytes.
        Chunk tail = pending.peekLast();
        if (tail != null && due - tail.due() < 1_000_000 && tail.bytes().limit() < CHUNK) {
          ByteBuffer b = tail.bytes();
          int position = b.position();
          int end = b.limit();
          b.position(end).limit(CHUNK);
          int n = from.read(b);
          b.limit(Math.max(end, b.position())).position(position);
          if (n < 0) {
            eof = true;
            key.interestOps(0);
            return;
          }
          pendingBytes += n;
          if (n == 0 || b.limit() < CHUNK) return; // drained what the socket had
          continue;
        }
        ByteBuffer b = buffer();
        int n = from.read(b);
        if (n <= 0) {
          recycle(b);
          if (n < 0) {
            eof = true;
            key.interestOps(0);
          }
          return;
        }
        pending.add(new Chunk(b.flip(), due));
        pendingBytes += n;
        if (b.limit() < CHUNK) return; // drained what the socket had
      }
      key.interestOps(0); // full: TCP holds the sender back until the line drains
    }

    void pump(long now) throws IOException {
      // A backlogged direction keeps what it earned while the loop was late (the average rate holds); an idle one, or one
      // whose next bytes are still in flight, starts its next burst with at most BURST.
      tokens = Math.min(backlogged ? CATCH_UP : BURST, tokens + (now - refilled) * bytesPerNano);
      refilled = now;
      blocked = false;
      while (!pending.isEmpty()) {
        Chunk head = pending.peek();
        double available = link == null ? tokens : Math.min(tokens, link.tokens);
        if (head.due() > now || available < 1) break;
        ByteBuffer b = head.bytes();
        int allowed = (int) Math.min(b.remaining(), available);
        int limit = b.limit();
        b.limit(b.position() + allowed);
        int n = to.write(b);
        b.limit(limit);
        tokens -= n;
        if (link != null) link.tokens -= n;
        pendingBytes -= n;
        if (!b.hasRemaining()) recycle(pending.poll().bytes());
        if (n < allowed) {
          blocked = true; // the receiver's socket is full: try again on the next wake
          break;
        }
      }
      Chunk head = pending.peek();
      // only a direction held back by its cap earns catch-up tokens, not one whose receiver is full
      backlogged = !blocked && head != null && head.due() <= now;
      if (!eof && pendingBytes < MAX_PENDING && key.isValid() && key.interestOps() == 0) key.interestOps(SelectionKey.OP_READ);
      if (eof && pending.isEmpty() && !shut) {
        shut = true;
        to.shutdownOutput();
        if (connection.directions.stream().allMatch(d -> d.shut)) connection.close();
      }
    }

    /** When this direction can next send: -1 if it has nothing to send. */
    long sendableAt(long now) {
      Chunk head = pending.peek();
      if (head == null) return -1;
      if (head.due() > now) return head.due();
      if (blocked) return now + 1_000_000;
      double want = Math.min(head.bytes().remaining(), QUANTUM);
      double have = tokens + (now - refilled) * bytesPerNano;
      long at = have >= want ? now : now + (long) Math.ceil((want - have) / bytesPerNano);
      if (link == null) return at;
      double shared = link.tokens + (now - link.refilled) * link.bytesPerNano;
      return Math.max(at, shared >= want ? now : now + (long) Math.ceil((want - shared) / link.bytesPerNano));
    }

    void release() {
      for (Chunk c : pending) recycle(c.bytes());
      pending.clear();
      pendingBytes = 0;
    }
  }

  /** Stops the loop, which then closes every connection (only the loop thread touches them). */
  @Override
  public void close() throws IOException {
    try {
      selector.close();
      loop.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      server.close();
    }
  }
}
