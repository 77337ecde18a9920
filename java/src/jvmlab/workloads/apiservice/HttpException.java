package jvmlab.workloads.apiservice;

/**
 * A request answered with an error status and a message for the client. {@code fatal}: the request could not
 * be read whole, so the connection closes after the answer. No stack trace: a bad request is not a bug.
 */
final class HttpException extends Exception {
    final int status;
    final boolean fatal;
    final String allow;

    private HttpException(int status, String message, boolean fatal, String allow) {
        super(message, null, false, false);
        this.status = status;
        this.fatal = fatal;
        this.allow = allow;
    }

    /** A request that was read whole but cannot be served: the connection goes on. */
    static HttpException of(int status, String message) {
        return new HttpException(status, message, false, null);
    }

    /** A request that could not be read: the answer closes the connection. */
    static HttpException fatal(int status, String message) {
        return new HttpException(status, message, true, null);
    }

    static HttpException methodNotAllowed(String method, String allow) {
        return new HttpException(405, method + " is not allowed here; allowed: " + allow, false, allow);
    }
}
