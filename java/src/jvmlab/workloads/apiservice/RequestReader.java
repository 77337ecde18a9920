package jvmlab.workloads.apiservice;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * The bytes a connection has received, cut into requests: a head of at most {@link #MAX_HEAD} bytes (else
 * 431), then a body of Content-Length bytes (at most {@code maxBody}). Bytes after a request stay for the
 * next one (pipelining).
 */
final class RequestReader {
    static final int MAX_HEAD = 8192;
    private final byte[] buffer = new byte[MAX_HEAD];
    private final ByteBuffer window = ByteBuffer.wrap(buffer);
    private final long maxBody;
    private int start;
    private int end;
    private HttpRequest head;
    private byte[] body;
    private int bodyFilled;
    private boolean continueDue;

    RequestReader(long maxBody) {
        this.maxBody = maxBody;
    }

    /** Reads what the channel has now; false at the end of the stream. */
    boolean fill(ReadableByteChannel channel) throws IOException {
        if (head != null) {
            int n = channel.read(ByteBuffer.wrap(body, bodyFilled, body.length - bodyFilled));
            bodyFilled += Math.max(n, 0);
            return n >= 0;
        }
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        window.limit(buffer.length).position(end);
        int n = channel.read(window);
        end += Math.max(n, 0);
        return n >= 0;
    }

    /** The next whole request, or null until more bytes have come. */
    HttpRequest next() throws HttpException {
        if (head == null && !readHead()) {
            return null;
        }
        if (bodyFilled < body.length) {
            return null;
        }
        HttpRequest request = head.withBody(body);
        head = null;
        body = null;
        return request;
    }

    /**
     * Whether the client waits for "100 Continue" before it sends the body it announced (Expect:
     * 100-continue, RFC 9110 10.1.1); true once per request.
     */
    boolean continueDue() {
        boolean due = continueDue;
        continueDue = false;
        return due;
    }

    /** Whether bytes of a next request are already here. */
    boolean hasBuffered() {
        return end > start;
    }

    private boolean readHead() throws HttpException {
        while (start < end && (buffer[start] == '\r' || buffer[start] == '\n')) {
            start++; // empty lines before a request line are ignored (RFC 9112, 2.2)
        }
        int last = lastLineEnd();
        if (last < 0) {
            if (end - start >= MAX_HEAD) {
                throw HttpException.fatal(431, "request head over " + MAX_HEAD + " bytes");
            }
            return false;
        }
        head = RequestParser.parse(buffer, start, buffer[last - 1] == '\r' ? last - 1 : last, maxBody);
        start = buffer[last + 1] == '\n' ? last + 2 : last + 3;
        body = new byte[(int) head.contentLength];
        bodyFilled = Math.min(body.length, end - start);
        System.arraycopy(buffer, start, body, 0, bodyFilled);
        start += bodyFilled;
        continueDue = bodyFilled < body.length && "100-continue".equalsIgnoreCase(head.header("expect"));
        return true;
    }

    /** The LF that ends the head's last line, the one an empty line (LF or CRLF) follows; or -1. */
    private int lastLineEnd() {
        for (int i = start + 1; i + 1 < end; i++) {
            if (buffer[i] == '\n'
                    && (buffer[i + 1] == '\n' || (buffer[i + 1] == '\r' && i + 2 < end && buffer[i + 2] == '\n'))) {
                return i;
            }
        }
        return -1;
    }
}
