// main.swift (NIOServer)
//
// An HTTP/1.1 server as swift-nio's examples write one: a two-thread event loop group, the
// server pipeline `configureHTTPServerPipeline` sets up, and a handler that answers every
// request with "hello" on a connection kept alive. It binds 127.0.0.1 on the port given (0: one
// the kernel picks) and prints "listening PORT" once it accepts; run.py then holds connections
// open and takes censuses of it.

import NIOCore
import NIOHTTP1
import NIOPosix

/// Answers each request with a five-byte body, keeping the connection open.
final class Hello: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
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
