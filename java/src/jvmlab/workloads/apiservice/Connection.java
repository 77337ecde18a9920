package jvmlab.workloads.apiservice;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One client connection. The poller hands it to a worker when bytes arrive; the worker reads, serves every
 * whole request there is (keep-alive, pipelining), and gives it back to the poller to wait for the next one,
 * so an idle connection holds no thread. The channel is non-blocking: a write that does not fit the socket
 * buffer waits for it on a selector of its own, at most the idle timeout.
 */
final class Connection implements Runnable {
    private static final long LINGER_MS = 1000;
    private static final long LINGER_BYTES = 1 << 20;
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

    final SocketChannel channel;
    private final HttpServer server;
    private final RequestReader reader;
    private final AtomicBoolean closed = new AtomicBoolean();
    SelectionKey key; // the poller's registration; the poller thread alone uses it
    long idleSinceNanos; // the poller thread alone uses it

    Connection(SocketChannel channel, HttpServer server) {
        this.channel = channel;
        this.server = server;
        this.reader = new RequestReader(server.maxBodyBytes);
    }

    @Override
    public void run() {
        try {
            serve();
        } catch (IOException e) {
            close(); // the client went away, or stopped reading
        } catch (Throwable t) {
            server.stats.failure(t);
            close();
        }
    }

    private void serve() throws IOException {
        if (!reader.fill(channel)) {
            close();
            return;
        }
        while (true) {
            HttpRequest request;
            try {
                request = reader.next();
            } catch (HttpException e) {
                refuse(e);
                return;
            }
            if (request == null) {
                if (reader.continueDue()) {
                    write(new ByteBuffer[] {ByteBuffer.wrap(CONTINUE)});
                }
                server.watch(this);
                return;
            }
            if (!respond(request)) {
                close();
                return;
            }
            if (!reader.hasBuffered()) {
                server.watch(this);
                return;
            }
        }
    }

    /** Serves a request; whether the connection stays open. */
    private boolean respond(HttpRequest request) throws IOException {
        HttpResponse response = server.router.respond(request);
        boolean keepAlive = request.keepAlive() && server.running();
        write(response.encode(keepAlive, request.http11, !request.isHead()));
        server.stats.responded(response.status);
        return keepAlive;
    }

    /** Answers a request that could not be read, then closes without losing the answer. */
    private void refuse(HttpException e) throws IOException {
        write(HttpResponse.error(e).encode(false, true, true));
        server.stats.responded(e.status);
        lingeringClose();
    }

    /**
     * The poller's answer when the request queue is full: reads what the client sent (so that closing does not
     * reset the connection and lose the answer), writes 503 if the socket buffer takes it, closes. A client that
     * had closed gets no answer and is not counted.
     */
    void reject() {
        try {
            if (channel.read(ByteBuffer.allocate(RequestReader.MAX_HEAD)) >= 0) {
                server.stats.rejected();
                channel.write(HttpResponse.error(503, "the service is overloaded; try again later", null)
                        .encode(false, true, true));
                channel.shutdownOutput();
            }
        } catch (IOException e) {
            // the client is gone: nothing to answer
        } finally {
            close();
        }
    }

    private void write(ByteBuffer[] data) throws IOException {
        ByteBuffer last = data[data.length - 1];
        while (last.hasRemaining()) {
            if (channel.write(data) == 0 && !await(SelectionKey.OP_WRITE, server.idleTimeoutMs)) {
                throw new IOException("the client read nothing for " + server.idleTimeoutMs + " ms");
            }
        }
    }

    /**
     * Closes after an error answer: first the sending side, then reads (and drops) what the client still sends,
     * for up to a second, so that its unread bytes do not make the close a reset that loses the answer.
     */
    private void lingeringClose() {
        try {
            channel.shutdownOutput();
            ByteBuffer sink = ByteBuffer.allocate(8192);
            long deadline = System.nanoTime() + LINGER_MS * 1000000L;
            for (long drained = 0; drained < LINGER_BYTES;) {
                sink.clear();
                int n = channel.read(sink);
                if (n < 0) {
                    return;
                }
                drained += n;
                long leftMs = (deadline - System.nanoTime()) / 1000000L;
                if (n == 0 && (leftMs <= 0 || !await(SelectionKey.OP_READ, leftMs))) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client is gone: nothing to keep
        } finally {
            close();
        }
    }

    /** Waits until the channel is ready for {@code op}; false after {@code timeoutMs}. */
    private boolean await(int op, long timeoutMs) throws IOException {
        Selector selector = Selector.open();
        try {
            channel.register(selector, op);
            return selector.select(timeoutMs) > 0;
        } finally {
            selector.close();
        }
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                channel.close();
            } catch (IOException e) {
                // closed anyway
            }
            server.stats.closed();
        }
    }
}
