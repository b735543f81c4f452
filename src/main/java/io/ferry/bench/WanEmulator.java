package io.ferry.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A userspace WAN in front of a loopback server ({@code tc netem} is not available here): every connection gets a
 * one-way delay in each direction and its own bandwidth cap, as one stream to a distant object store does (measured
 * at 49–134 MB/s). Bytes pass unchanged, so signatures stay valid. For benchmarks, not tests.
 *
 * <p>Usage: {@code WanEmulator <listen-port> <target-port> <MB/s per connection> <one-way delay ms>}.
 */
public final class WanEmulator implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final double bytesPerSecond;
  private final long delayNanos;

  public WanEmulator(int listenPort, int targetPort, double megabytesPerSecond, long oneWayDelayMillis) throws IOException {
    this.server = new ServerSocket(listenPort, 200, InetAddress.getLoopbackAddress());
    this.targetPort = targetPort;
    this.bytesPerSecond = megabytesPerSecond * 1e6;
    this.delayNanos = oneWayDelayMillis * 1_000_000L;
    Thread acceptor = new Thread(this::accept, "wan-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return server.getLocalPort();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: WanEmulator <listen-port> <target-port> <MB/s per connection> <one-way delay ms>");
      System.exit(2);
    }
    try (WanEmulator wan = new WanEmulator(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Double.parseDouble(args[2]),
        Long.parseLong(args[3]))) {
      System.out.println("WAN emulator on 127.0.0.1:" + wan.port() + " -> 127.0.0.1:" + args[1] + ", " + args[2]
          + " MB/s per connection, " + args[3] + " ms each way");
      Thread.currentThread().join();
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        client.setTcpNoDelay(true);
        Socket upstream = new Socket();
        upstream.setTcpNoDelay(true);
        upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
        link(client, upstream);
        link(upstream, client);
      } catch (IOException e) {
        // closed, or the target refused: the client sees its connection close
      }
    }
  }

  /** One direction: a reader stamps each chunk with its arrival time, a writer releases it after the delay at the cap. */
  private void link(Socket from, Socket to) {
    record Chunk(byte[] bytes, int length, long arrived) {}
    BlockingQueue<Chunk> line = new LinkedBlockingQueue<>(256);
    Chunk end = new Chunk(new byte[0], -1, 0);
    Thread reader = new Thread(() -> {
      try (InputStream in = from.getInputStream()) {
        while (true) {
          byte[] buffer = new byte[64 * 1024];
          int n = in.read(buffer);
          if (n < 0) break;
          line.put(new Chunk(buffer, n, System.nanoTime()));
        }
      } catch (IOException | InterruptedException e) {
        // connection gone
      }
      line.offer(end);
    }, "wan-read");
    Thread writer = new Thread(() -> {
      long sent = 0;
      long start = -1;
      try (OutputStream out = to.getOutputStream()) {
        while (true) {
          Chunk chunk = line.take();
          if (chunk.length() < 0) break;
          sleepUntil(chunk.arrived() + delayNanos);
          if (start < 0) {
            start = System.nanoTime();
            sent = 0;
          }
          out.write(chunk.bytes(), 0, chunk.length());
          sent += chunk.length();
          // within a burst the cumulative rate never exceeds the cap
          sleepUntil(start + (long) (sent / bytesPerSecond * 1e9));
          if (line.isEmpty()) start = -1; // idle: the next burst (the next response) starts afresh
        }
      } catch (IOException | InterruptedException e) {
        // connection gone
      } finally {
        try {
          to.shutdownOutput();
        } catch (IOException ignored) {
          // closed already
        }
      }
    }, "wan-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long wait = nanoTime - System.nanoTime();
    if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
