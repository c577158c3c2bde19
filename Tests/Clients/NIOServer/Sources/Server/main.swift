// main.swift (NIOServer)
//
// An HTTP/1.1 server as swift-nio's examples write one: a two-thread event loop group, the
// server pipeline `configureHTTPServerPipeline` sets up, and a handler that answers every
// request with "hello" on a connection kept alive; a request for `/leak` also leaks one cycle,
// a `Session` whose callback's closure context refers back to it. It binds 127.0.0.1 on the port given (0: one
// the kernel picks) and prints "listening PORT" once it accepts; run.py then holds connections
// open and takes censuses of it.

import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix

/// What a request for `/leak` leaves behind: a session whose callback captures it (and a tag,
/// so that the closure has a context of its own), which nothing else refers to.
final class Session {
    var onClose: (() -> Void)?
}

/// Leaks one session, on a thread of its own: its stack is unmapped after it ends, and its
/// allocations come from an arena no event-loop thread uses, so that no stale word (of a stack, a
/// register, or a reused block's unwritten tail, where swift-nio's task queue keeps the closures it
/// ran) points at the session, and `leaks` must find every one.
@inline(never) func leakSession() {
    let stackSize = 1 << 20
    guard let stack = mmap(nil, stackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
        stack != MAP_FAILED
    else { return }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstack(&attributes, stack, stackSize)
    var thread = pthread_t()
    if pthread_create(
        &thread,
        &attributes,
        { _ in
            makeSession()
            return nil
        },
        nil
    ) == 0 {
        pthread_join(thread, nil)
    }
    pthread_attr_destroy(&attributes)
    munmap(stack, stackSize)
}

@inline(never) func makeSession() {
    let session = Session()
    let tag = Int.random(in: 1...1000)
    session.onClose = { print(tag, session) }
}

/// Answers each request with a five-byte body, keeping the connection open.
final class Hello: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if case .head(let head) = part, head.uri == "/leak" { leakSession() }
        guard case .end = part else { return }
        var headers = HTTPHeaders()
        headers.add(name: "content-length", value: "5")
        headers.add(name: "connection", value: "keep-alive")
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(string: "hello")))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.backlog, value: 1024)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(Hello()) }
    }
let requested = Int(CommandLine.arguments.dropFirst().first ?? "0") ?? 0
let channel = try bootstrap.bind(host: "127.0.0.1", port: requested).wait()
print("listening \(channel.localAddress?.port ?? requested)")
fflush(nil)  // stdout is a pipe: without this, the line waits in its buffer.
try channel.closeFuture.wait()
