"""The GameHost RPCs about people rather than matches: a match's chat and
what players do about each other in it (ChatCalls), their browsers' push
subscriptions (PushCalls), and all their data (UserDataCalls). The servicer
(service.py) is built on this base, which declares the parts it calls."""

from __future__ import annotations

from gamehost.host.auth.principal import Principal
from gamehost.host.rpc.chat_calls import ChatCalls
from gamehost.host.rpc.gate import Gate
from gamehost.host.rpc.gated_methods import Context, unary
from gamehost.host.rpc.push_calls import PushCalls, push_off
from gamehost.host.rpc.user_data_calls import UserDataCalls
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc


class PeopleRpcs(pb_grpc.GameHostServicer):
    gate: Gate  # every call is checked there first (gated_methods.py)
    chat: ChatCalls
    push: PushCalls | None  # None: the host sends no push
    user_data: UserDataCalls

    # ------------------------------------------------------------ chat

    @unary
    async def SendChat(self, request: pb.SendChatRequest, context: Context, caller: Principal) -> pb.ChatMessage:
        return await self.chat.send(request, caller)

    @unary
    async def ReportChat(self, request: pb.ReportChatRequest, context: Context, caller: Principal) -> pb.ChatReport:
        return await self.chat.report_message(request, caller)

    @unary
    async def ReportPlayer(self, request: pb.ReportPlayerRequest, context: Context,
                           caller: Principal) -> pb.ChatReport:
        return await self.chat.report_player(request, caller)

    @unary
    async def MuteUser(self, request: pb.MuteUserRequest, context: Context, caller: Principal) -> pb.ChatRelations:
        return await self.chat.mute(request, caller)

    @unary
    async def UnmuteUser(self, request: pb.UnmuteUserRequest, context: Context,
                         caller: Principal) -> pb.ChatRelations:
        return await self.chat.unmute(request, caller)

    @unary
    async def BlockUser(self, request: pb.BlockUserRequest, context: Context, caller: Principal) -> pb.ChatRelations:
        return await self.chat.block(request, caller)

    @unary
    async def UnblockUser(self, request: pb.UnblockUserRequest, context: Context,
                          caller: Principal) -> pb.ChatRelations:
        return await self.chat.unblock(request, caller)

    @unary
    async def GetChatRelations(self, request: pb.GetChatRelationsRequest, context: Context,
                               caller: Principal) -> pb.ChatRelations:
        return await self.chat.relations(caller)

    # ------------------------------------------------------------ push

    @unary
    async def GetPushKey(self, request: pb.GetPushKeyRequest, context: Context, caller: Principal) -> pb.PushKey:
        if self.push is None:
            raise push_off()
        return self.push.key()

    @unary
    async def SubscribePush(self, request: pb.SubscribePushRequest, context: Context,
                            caller: Principal) -> pb.PushSubscription:
        if self.push is None:
            raise push_off()
        return await self.push.subscribe(request, caller)

    @unary
    async def UnsubscribePush(self, request: pb.UnsubscribePushRequest, context: Context,
                              caller: Principal) -> pb.UnsubscribePushResponse:
        if self.push is None:
            raise push_off()
        return await self.push.unsubscribe(request, caller)

    # ------------------------------------------------------------ players' data

    @unary
    async def ExportUserData(self, request: pb.ExportUserDataRequest, context: Context,
                             caller: Principal) -> pb.UserDataExport:
        return await self.user_data.export(request, caller)

    @unary
    async def DeleteUserData(self, request: pb.DeleteUserDataRequest, context: Context,
                             caller: Principal) -> pb.DeleteUserDataResponse:
        return await self.user_data.delete(request, caller)
