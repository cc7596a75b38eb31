import datetime

from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_OPEN: _ClassVar[MatchStatus]
    MATCH_STATUS_ACTIVE: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
    MATCH_STATUS_ABANDONED: _ClassVar[MatchStatus]
    MATCH_STATUS_ABORTED: _ClassVar[MatchStatus]
    MATCH_STATUS_SUSPENDED: _ClassVar[MatchStatus]

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_UNSPECIFIED: _ClassVar[SeatKind]
    SEAT_KIND_OPEN: _ClassVar[SeatKind]
    SEAT_KIND_HUMAN: _ClassVar[SeatKind]
    SEAT_KIND_BOT: _ClassVar[SeatKind]

class Visibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VISIBILITY_UNSPECIFIED: _ClassVar[Visibility]
    VISIBILITY_PUBLIC: _ClassVar[Visibility]
    VISIBILITY_UNLISTED: _ClassVar[Visibility]
    VISIBILITY_PRIVATE: _ClassVar[Visibility]

class Spectators(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SPECTATORS_UNSPECIFIED: _ClassVar[Spectators]
    SPECTATORS_ANYONE: _ClassVar[Spectators]
    SPECTATORS_PLAYERS: _ClassVar[Spectators]
    SPECTATORS_NONE: _ClassVar[Spectators]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_JOINED: _ClassVar[EventKind]
    EVENT_KIND_LEFT: _ClassVar[EventKind]
    EVENT_KIND_STARTED: _ClassVar[EventKind]
    EVENT_KIND_MOVED: _ClassVar[EventKind]
    EVENT_KIND_FINISHED: _ClassVar[EventKind]
    EVENT_KIND_ABANDONED: _ClassVar[EventKind]
    EVENT_KIND_ABORTED: _ClassVar[EventKind]
    EVENT_KIND_SUSPENDED: _ClassVar[EventKind]
    EVENT_KIND_RESUMED: _ClassVar[EventKind]
    EVENT_KIND_BOT_ASSIGNED: _ClassVar[EventKind]
    EVENT_KIND_CLOCK_RAN_OUT: _ClassVar[EventKind]
    EVENT_KIND_UNDO_ASKED: _ClassVar[EventKind]
    EVENT_KIND_UNDO_ACCEPTED: _ClassVar[EventKind]
    EVENT_KIND_UNDO_REFUSED: _ClassVar[EventKind]
    EVENT_KIND_UNDO_WITHDRAWN: _ClassVar[EventKind]
    EVENT_KIND_UNDONE: _ClassVar[EventKind]
    EVENT_KIND_UNDO_LAPSED: _ClassVar[EventKind]
    EVENT_KIND_RESIGNED: _ClassVar[EventKind]
    EVENT_KIND_DRAW_OFFERED: _ClassVar[EventKind]
    EVENT_KIND_DRAW_ACCEPTED: _ClassVar[EventKind]
    EVENT_KIND_DRAW_DECLINED: _ClassVar[EventKind]
    EVENT_KIND_DRAW_WITHDRAWN: _ClassVar[EventKind]
    EVENT_KIND_DRAW_LAPSED: _ClassVar[EventKind]
    EVENT_KIND_DRAW_AGREED: _ClassVar[EventKind]
    EVENT_KIND_VICTORY_CLAIMED: _ClassVar[EventKind]
    EVENT_KIND_CHAT: _ClassVar[EventKind]

class TicketState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_STATE_UNSPECIFIED: _ClassVar[TicketState]
    TICKET_STATE_QUEUED: _ClassVar[TicketState]
    TICKET_STATE_MATCHED: _ClassVar[TicketState]
    TICKET_STATE_CANCELLED: _ClassVar[TicketState]
    TICKET_STATE_EXPIRED: _ClassVar[TicketState]

class DeliveryState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DELIVERY_STATE_UNSPECIFIED: _ClassVar[DeliveryState]
    DELIVERY_STATE_PENDING: _ClassVar[DeliveryState]
    DELIVERY_STATE_DELIVERED: _ClassVar[DeliveryState]
    DELIVERY_STATE_FAILED: _ClassVar[DeliveryState]

class ChatChannel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHAT_CHANNEL_UNSPECIFIED: _ClassVar[ChatChannel]
    CHAT_CHANNEL_PLAYERS: _ClassVar[ChatChannel]
    CHAT_CHANNEL_SPECTATORS: _ClassVar[ChatChannel]
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_OPEN: MatchStatus
MATCH_STATUS_ACTIVE: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_ABANDONED: MatchStatus
MATCH_STATUS_ABORTED: MatchStatus
MATCH_STATUS_SUSPENDED: MatchStatus
SEAT_KIND_UNSPECIFIED: SeatKind
SEAT_KIND_OPEN: SeatKind
SEAT_KIND_HUMAN: SeatKind
SEAT_KIND_BOT: SeatKind
VISIBILITY_UNSPECIFIED: Visibility
VISIBILITY_PUBLIC: Visibility
VISIBILITY_UNLISTED: Visibility
VISIBILITY_PRIVATE: Visibility
SPECTATORS_UNSPECIFIED: Spectators
SPECTATORS_ANYONE: Spectators
SPECTATORS_PLAYERS: Spectators
SPECTATORS_NONE: Spectators
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_JOINED: EventKind
EVENT_KIND_LEFT: EventKind
EVENT_KIND_STARTED: EventKind
EVENT_KIND_MOVED: EventKind
EVENT_KIND_FINISHED: EventKind
EVENT_KIND_ABANDONED: EventKind
EVENT_KIND_ABORTED: EventKind
EVENT_KIND_SUSPENDED: EventKind
EVENT_KIND_RESUMED: EventKind
EVENT_KIND_BOT_ASSIGNED: EventKind
EVENT_KIND_CLOCK_RAN_OUT: EventKind
EVENT_KIND_UNDO_ASKED: EventKind
EVENT_KIND_UNDO_ACCEPTED: EventKind
EVENT_KIND_UNDO_REFUSED: EventKind
EVENT_KIND_UNDO_WITHDRAWN: EventKind
EVENT_KIND_UNDONE: EventKind
EVENT_KIND_UNDO_LAPSED: EventKind
EVENT_KIND_RESIGNED: EventKind
EVENT_KIND_DRAW_OFFERED: EventKind
EVENT_KIND_DRAW_ACCEPTED: EventKind
EVENT_KIND_DRAW_DECLINED: EventKind
EVENT_KIND_DRAW_WITHDRAWN: EventKind
EVENT_KIND_DRAW_LAPSED: EventKind
EVENT_KIND_DRAW_AGREED: EventKind
EVENT_KIND_VICTORY_CLAIMED: EventKind
EVENT_KIND_CHAT: EventKind
TICKET_STATE_UNSPECIFIED: TicketState
TICKET_STATE_QUEUED: TicketState
TICKET_STATE_MATCHED: TicketState
TICKET_STATE_CANCELLED: TicketState
TICKET_STATE_EXPIRED: TicketState
DELIVERY_STATE_UNSPECIFIED: DeliveryState
DELIVERY_STATE_PENDING: DeliveryState
DELIVERY_STATE_DELIVERED: DeliveryState
DELIVERY_STATE_FAILED: DeliveryState
CHAT_CHANNEL_UNSPECIFIED: ChatChannel
CHAT_CHANNEL_PLAYERS: ChatChannel
CHAT_CHANNEL_SPECTATORS: ChatChannel

class Game(_message.Message):
    __slots__ = ("name", "id", "title", "summary", "rules_version", "min_players", "max_players", "options_schema", "default_options", "variants", "hidden_information", "chance", "plugin", "bots", "player_counts", "undo", "draw_by_agreement", "locale", "how_to_play")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    MAX_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_COUNTS_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    DRAW_BY_AGREEMENT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    HOW_TO_PLAY_FIELD_NUMBER: _ClassVar[int]
    name: str
    id: str
    title: str
    summary: str
    rules_version: str
    min_players: int
    max_players: int
    options_schema: _struct_pb2.Struct
    default_options: _struct_pb2.Struct
    variants: _containers.RepeatedCompositeFieldContainer[Variant]
    hidden_information: bool
    chance: bool
    plugin: str
    bots: _containers.RepeatedCompositeFieldContainer[GameBot]
    player_counts: _containers.RepeatedScalarFieldContainer[int]
    undo: bool
    draw_by_agreement: bool
    locale: str
    how_to_play: str
    def __init__(self, name: _Optional[str] = ..., id: _Optional[str] = ..., title: _Optional[str] = ..., summary: _Optional[str] = ..., rules_version: _Optional[str] = ..., min_players: _Optional[int] = ..., max_players: _Optional[int] = ..., options_schema: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., default_options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., variants: _Optional[_Iterable[_Union[Variant, _Mapping]]] = ..., hidden_information: _Optional[bool] = ..., chance: _Optional[bool] = ..., plugin: _Optional[str] = ..., bots: _Optional[_Iterable[_Union[GameBot, _Mapping]]] = ..., player_counts: _Optional[_Iterable[int]] = ..., undo: _Optional[bool] = ..., draw_by_agreement: _Optional[bool] = ..., locale: _Optional[str] = ..., how_to_play: _Optional[str] = ...) -> None: ...

class GameBot(_message.Message):
    __slots__ = ("name", "title", "level", "agent", "rating")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    AGENT_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    level: int
    agent: bool
    rating: BotRating
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., level: _Optional[int] = ..., agent: _Optional[bool] = ..., rating: _Optional[_Union[BotRating, _Mapping]] = ...) -> None: ...

class BotRating(_message.Message):
    __slots__ = ("mu", "sigma", "rating", "games", "wins", "losses", "draws")
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    mu: float
    sigma: float
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    def __init__(self, mu: _Optional[float] = ..., sigma: _Optional[float] = ..., rating: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., losses: _Optional[int] = ..., draws: _Optional[int] = ...) -> None: ...

class Variant(_message.Message):
    __slots__ = ("id", "title", "description", "options")
    ID_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    id: str
    title: str
    description: str
    options: _struct_pb2.Struct
    def __init__(self, id: _Optional[str] = ..., title: _Optional[str] = ..., description: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "locale")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    locale: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[Game]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[Game, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("name", "locale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    locale: str
    def __init__(self, name: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("index", "kind", "player_name", "bot", "verified", "away_until", "reserved_for", "resigned")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    VERIFIED_FIELD_NUMBER: _ClassVar[int]
    AWAY_UNTIL_FIELD_NUMBER: _ClassVar[int]
    RESERVED_FOR_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    index: int
    kind: SeatKind
    player_name: str
    bot: str
    verified: bool
    away_until: _timestamp_pb2.Timestamp
    reserved_for: str
    resigned: bool
    def __init__(self, index: _Optional[int] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., player_name: _Optional[str] = ..., bot: _Optional[str] = ..., verified: _Optional[bool] = ..., away_until: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., reserved_for: _Optional[str] = ..., resigned: _Optional[bool] = ...) -> None: ...

class StatusDetail(_message.Message):
    __slots__ = ("reason", "message", "plugin")
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    PLUGIN_FIELD_NUMBER: _ClassVar[int]
    reason: str
    message: str
    plugin: str
    def __init__(self, reason: _Optional[str] = ..., message: _Optional[str] = ..., plugin: _Optional[str] = ...) -> None: ...

class Result(_message.Message):
    __slots__ = ("scores", "ranking", "winners", "summary")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    RANKING_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[float]
    ranking: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    summary: str
    def __init__(self, scores: _Optional[_Iterable[float]] = ..., ranking: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., summary: _Optional[str] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("name", "game", "rules_version", "status", "version", "seats", "options", "to_move", "result", "create_time", "update_time", "turn_timeout", "turn_deadline", "seed_chosen", "status_detail", "rules_unavailable", "clock", "absent_grace", "undo_ask", "user_turn_since", "user_seats", "visibility", "spectators", "rated", "invitation_code", "draw_offer", "locale", "seed_commitment")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    TURN_DEADLINE_FIELD_NUMBER: _ClassVar[int]
    SEED_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    STATUS_DETAIL_FIELD_NUMBER: _ClassVar[int]
    RULES_UNAVAILABLE_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    ABSENT_GRACE_FIELD_NUMBER: _ClassVar[int]
    UNDO_ASK_FIELD_NUMBER: _ClassVar[int]
    USER_TURN_SINCE_FIELD_NUMBER: _ClassVar[int]
    USER_SEATS_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    DRAW_OFFER_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    game: str
    rules_version: str
    status: MatchStatus
    version: int
    seats: _containers.RepeatedCompositeFieldContainer[Seat]
    options: _struct_pb2.Struct
    to_move: _containers.RepeatedScalarFieldContainer[int]
    result: Result
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    turn_timeout: _duration_pb2.Duration
    turn_deadline: _timestamp_pb2.Timestamp
    seed_chosen: bool
    status_detail: StatusDetail
    rules_unavailable: bool
    clock: ChessClock
    absent_grace: _duration_pb2.Duration
    undo_ask: UndoAsk
    user_turn_since: _timestamp_pb2.Timestamp
    user_seats: _containers.RepeatedScalarFieldContainer[int]
    visibility: Visibility
    spectators: Spectators
    rated: bool
    invitation_code: str
    draw_offer: DrawOffer
    locale: str
    seed_commitment: bytes
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., rules_version: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., version: _Optional[int] = ..., seats: _Optional[_Iterable[_Union[Seat, _Mapping]]] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., to_move: _Optional[_Iterable[int]] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., turn_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., turn_deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., seed_chosen: _Optional[bool] = ..., status_detail: _Optional[_Union[StatusDetail, _Mapping]] = ..., rules_unavailable: _Optional[bool] = ..., clock: _Optional[_Union[ChessClock, _Mapping]] = ..., absent_grace: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., undo_ask: _Optional[_Union[UndoAsk, _Mapping]] = ..., user_turn_since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., user_seats: _Optional[_Iterable[int]] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., spectators: _Optional[_Union[Spectators, str]] = ..., rated: _Optional[bool] = ..., invitation_code: _Optional[str] = ..., draw_offer: _Optional[_Union[DrawOffer, _Mapping]] = ..., locale: _Optional[str] = ..., seed_commitment: _Optional[bytes] = ...) -> None: ...

class SeatReservation(_message.Message):
    __slots__ = ("seat", "subject")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    subject: str
    def __init__(self, seat: _Optional[int] = ..., subject: _Optional[str] = ...) -> None: ...

class ChessClock(_message.Message):
    __slots__ = ("initial", "increment", "remaining", "since", "running", "deadline", "per_move")
    INITIAL_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    initial: _duration_pb2.Duration
    increment: _duration_pb2.Duration
    remaining: _containers.RepeatedCompositeFieldContainer[_duration_pb2.Duration]
    since: _timestamp_pb2.Timestamp
    running: _containers.RepeatedScalarFieldContainer[int]
    deadline: _timestamp_pb2.Timestamp
    per_move: _duration_pb2.Duration
    def __init__(self, initial: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., increment: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., remaining: _Optional[_Iterable[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]]] = ..., since: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., running: _Optional[_Iterable[int]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., per_move: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "seats", "options", "seed", "bot_seats", "request_id", "variant", "bot", "turn_timeout", "clock_initial", "clock_increment", "correspondence_move_time", "absent_grace", "visibility", "reserved_seats", "spectators", "rated", "seat_bots")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    BOT_SEATS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    TURN_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    CLOCK_INITIAL_FIELD_NUMBER: _ClassVar[int]
    CLOCK_INCREMENT_FIELD_NUMBER: _ClassVar[int]
    CORRESPONDENCE_MOVE_TIME_FIELD_NUMBER: _ClassVar[int]
    ABSENT_GRACE_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    RESERVED_SEATS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_BOTS_FIELD_NUMBER: _ClassVar[int]
    game: str
    seats: int
    options: _struct_pb2.Struct
    seed: int
    bot_seats: _containers.RepeatedScalarFieldContainer[int]
    request_id: str
    variant: str
    bot: str
    turn_timeout: _duration_pb2.Duration
    clock_initial: _duration_pb2.Duration
    clock_increment: _duration_pb2.Duration
    correspondence_move_time: _duration_pb2.Duration
    absent_grace: _duration_pb2.Duration
    visibility: Visibility
    reserved_seats: _containers.RepeatedCompositeFieldContainer[SeatReservation]
    spectators: Spectators
    rated: bool
    seat_bots: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, game: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., seed: _Optional[int] = ..., bot_seats: _Optional[_Iterable[int]] = ..., request_id: _Optional[str] = ..., variant: _Optional[str] = ..., bot: _Optional[str] = ..., turn_timeout: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., clock_initial: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., clock_increment: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., correspondence_move_time: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., absent_grace: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., reserved_seats: _Optional[_Iterable[_Union[SeatReservation, _Mapping]]] = ..., spectators: _Optional[_Union[Spectators, str]] = ..., rated: _Optional[bool] = ..., seat_bots: _Optional[_Iterable[str]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "game", "status", "mine", "player", "my_turn", "if_none_match", "locale")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MINE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    MY_TURN_FIELD_NUMBER: _ClassVar[int]
    IF_NONE_MATCH_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    game: str
    status: MatchStatus
    mine: bool
    player: str
    my_turn: bool
    if_none_match: str
    locale: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., game: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., mine: _Optional[bool] = ..., player: _Optional[str] = ..., my_turn: _Optional[bool] = ..., if_none_match: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token", "etag", "not_modified")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    NOT_MODIFIED_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[Match]
    next_page_token: str
    etag: str
    not_modified: bool
    def __init__(self, matches: _Optional[_Iterable[_Union[Match, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., etag: _Optional[str] = ..., not_modified: _Optional[bool] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("name", "invitation_code", "locale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    invitation_code: str
    locale: str
    def __init__(self, name: _Optional[str] = ..., invitation_code: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class JoinMatchRequest(_message.Message):
    __slots__ = ("name", "seat", "player_name", "invitation_code")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat: int
    player_name: str
    invitation_code: str
    def __init__(self, name: _Optional[str] = ..., seat: _Optional[int] = ..., player_name: _Optional[str] = ..., invitation_code: _Optional[str] = ...) -> None: ...

class JoinMatchResponse(_message.Message):
    __slots__ = ("match", "seat", "player_token")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match: Match
    seat: int
    player_token: str
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., seat: _Optional[int] = ..., player_token: _Optional[str] = ...) -> None: ...

class LeaveMatchRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class LegalMove(_message.Message):
    __slots__ = ("id", "label", "move", "parts")
    ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PARTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    label: str
    move: _struct_pb2.Struct
    parts: _containers.RepeatedCompositeFieldContainer[MovePart]
    def __init__(self, id: _Optional[str] = ..., label: _Optional[str] = ..., move: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., parts: _Optional[_Iterable[_Union[MovePart, _Mapping]]] = ...) -> None: ...

class MovePart(_message.Message):
    __slots__ = ("id", "label")
    ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    id: str
    label: str
    def __init__(self, id: _Optional[str] = ..., label: _Optional[str] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("match", "version", "status", "seat", "to_move", "state", "legal_moves", "result", "text", "svg", "locale", "last_turn")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TO_MOVE_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    LEGAL_MOVES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SVG_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    LAST_TURN_FIELD_NUMBER: _ClassVar[int]
    match: str
    version: int
    status: MatchStatus
    seat: int
    to_move: _containers.RepeatedScalarFieldContainer[int]
    state: _struct_pb2.Struct
    legal_moves: _containers.RepeatedCompositeFieldContainer[LegalMove]
    result: Result
    text: str
    svg: str
    locale: str
    last_turn: TurnSummary
    def __init__(self, match: _Optional[str] = ..., version: _Optional[int] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seat: _Optional[int] = ..., to_move: _Optional[_Iterable[int]] = ..., state: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., legal_moves: _Optional[_Iterable[_Union[LegalMove, _Mapping]]] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., text: _Optional[str] = ..., svg: _Optional[str] = ..., locale: _Optional[str] = ..., last_turn: _Optional[_Union[TurnSummary, _Mapping]] = ...) -> None: ...

class TurnSummary(_message.Message):
    __slots__ = ("seat", "steps", "complete", "text")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    steps: _containers.RepeatedCompositeFieldContainer[TurnStep]
    complete: bool
    text: str
    def __init__(self, seat: _Optional[int] = ..., steps: _Optional[_Iterable[_Union[TurnStep, _Mapping]]] = ..., complete: _Optional[bool] = ..., text: _Optional[str] = ...) -> None: ...

class TurnStep(_message.Message):
    __slots__ = ("version", "label", "revealed", "timed_out")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    version: int
    label: str
    revealed: _containers.RepeatedCompositeFieldContainer[Reveal]
    timed_out: bool
    def __init__(self, version: _Optional[int] = ..., label: _Optional[str] = ..., revealed: _Optional[_Iterable[_Union[Reveal, _Mapping]]] = ..., timed_out: _Optional[bool] = ...) -> None: ...

class Reveal(_message.Message):
    __slots__ = ("label", "value", "seen_by")
    LABEL_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SEEN_BY_FIELD_NUMBER: _ClassVar[int]
    label: str
    value: _struct_pb2.Value
    seen_by: int
    def __init__(self, label: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., seen_by: _Optional[int] = ...) -> None: ...

class RenderOptions(_message.Message):
    __slots__ = ("text", "svg")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    SVG_FIELD_NUMBER: _ClassVar[int]
    text: bool
    svg: bool
    def __init__(self, text: _Optional[bool] = ..., svg: _Optional[bool] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("name", "player_token", "render", "at_version", "invitation_code", "locale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RENDER_FIELD_NUMBER: _ClassVar[int]
    AT_VERSION_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    render: RenderOptions
    at_version: int
    invitation_code: str
    locale: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ..., render: _Optional[_Union[RenderOptions, _Mapping]] = ..., at_version: _Optional[int] = ..., invitation_code: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class SubmitMoveRequest(_message.Message):
    __slots__ = ("name", "player_token", "move_id", "structured", "expected_version", "request_id", "render", "include_view", "locale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    STRUCTURED_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RENDER_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_VIEW_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    move_id: str
    structured: _struct_pb2.Struct
    expected_version: int
    request_id: str
    render: RenderOptions
    include_view: bool
    locale: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ..., move_id: _Optional[str] = ..., structured: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., expected_version: _Optional[int] = ..., request_id: _Optional[str] = ..., render: _Optional[_Union[RenderOptions, _Mapping]] = ..., include_view: _Optional[bool] = ..., locale: _Optional[str] = ...) -> None: ...

class SubmitMoveResponse(_message.Message):
    __slots__ = ("version", "view", "replayed", "event")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    version: int
    view: View
    replayed: bool
    event: MatchEvent
    def __init__(self, version: _Optional[int] = ..., view: _Optional[_Union[View, _Mapping]] = ..., replayed: _Optional[bool] = ..., event: _Optional[_Union[MatchEvent, _Mapping]] = ...) -> None: ...

class MatchEvent(_message.Message):
    __slots__ = ("version", "kind", "time", "seat", "move", "label", "view", "timed_out", "reason", "undoes", "undo_expire_time", "draw_expire_time", "absent_seats", "left", "chat", "revealed", "turn", "view_patch")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    UNDOES_FIELD_NUMBER: _ClassVar[int]
    UNDO_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    DRAW_EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    ABSENT_SEATS_FIELD_NUMBER: _ClassVar[int]
    LEFT_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    VIEW_PATCH_FIELD_NUMBER: _ClassVar[int]
    version: int
    kind: EventKind
    time: _timestamp_pb2.Timestamp
    seat: int
    move: _struct_pb2.Struct
    label: str
    view: View
    timed_out: bool
    reason: str
    undoes: int
    undo_expire_time: _timestamp_pb2.Timestamp
    draw_expire_time: _timestamp_pb2.Timestamp
    absent_seats: _containers.RepeatedScalarFieldContainer[int]
    left: bool
    chat: ChatMessage
    revealed: _containers.RepeatedCompositeFieldContainer[Reveal]
    turn: TurnSummary
    view_patch: ViewPatch
    def __init__(self, version: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., seat: _Optional[int] = ..., move: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., label: _Optional[str] = ..., view: _Optional[_Union[View, _Mapping]] = ..., timed_out: _Optional[bool] = ..., reason: _Optional[str] = ..., undoes: _Optional[int] = ..., undo_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., draw_expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., absent_seats: _Optional[_Iterable[int]] = ..., left: _Optional[bool] = ..., chat: _Optional[_Union[ChatMessage, _Mapping]] = ..., revealed: _Optional[_Iterable[_Union[Reveal, _Mapping]]] = ..., turn: _Optional[_Union[TurnSummary, _Mapping]] = ..., view_patch: _Optional[_Union[ViewPatch, _Mapping]] = ...) -> None: ...

class ViewPatch(_message.Message):
    __slots__ = ("from_version", "json_patch")
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    JSON_PATCH_FIELD_NUMBER: _ClassVar[int]
    from_version: int
    json_patch: str
    def __init__(self, from_version: _Optional[int] = ..., json_patch: _Optional[str] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("name", "player_token", "after_version", "render", "invitation_code", "with_chat", "chat_after_sequence", "chat_only", "locale", "view_patches", "own_events_in_answers")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    AFTER_VERSION_FIELD_NUMBER: _ClassVar[int]
    RENDER_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    WITH_CHAT_FIELD_NUMBER: _ClassVar[int]
    CHAT_AFTER_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    CHAT_ONLY_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    VIEW_PATCHES_FIELD_NUMBER: _ClassVar[int]
    OWN_EVENTS_IN_ANSWERS_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    after_version: int
    render: RenderOptions
    invitation_code: str
    with_chat: bool
    chat_after_sequence: int
    chat_only: bool
    locale: str
    view_patches: bool
    own_events_in_answers: bool
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ..., after_version: _Optional[int] = ..., render: _Optional[_Union[RenderOptions, _Mapping]] = ..., invitation_code: _Optional[str] = ..., with_chat: _Optional[bool] = ..., chat_after_sequence: _Optional[int] = ..., chat_only: _Optional[bool] = ..., locale: _Optional[str] = ..., view_patches: _Optional[bool] = ..., own_events_in_answers: _Optional[bool] = ...) -> None: ...

class GetMatchLogRequest(_message.Message):
    __slots__ = ("name", "player_token", "page_size", "page_token", "invitation_code", "locale")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    page_size: int
    page_token: str
    invitation_code: str
    locale: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., invitation_code: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class MatchLog(_message.Message):
    __slots__ = ("match", "game", "rules_version", "seats", "options", "seed", "complete", "events", "result", "next_page_token", "locale", "seed_commitment", "seed_salt", "chat")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_SALT_FIELD_NUMBER: _ClassVar[int]
    CHAT_FIELD_NUMBER: _ClassVar[int]
    match: str
    game: str
    rules_version: str
    seats: int
    options: _struct_pb2.Struct
    seed: int
    complete: bool
    events: _containers.RepeatedCompositeFieldContainer[MatchEvent]
    result: Result
    next_page_token: str
    locale: str
    seed_commitment: bytes
    seed_salt: bytes
    chat: _containers.RepeatedCompositeFieldContainer[ChatMessage]
    def __init__(self, match: _Optional[str] = ..., game: _Optional[str] = ..., rules_version: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., seed: _Optional[int] = ..., complete: _Optional[bool] = ..., events: _Optional[_Iterable[_Union[MatchEvent, _Mapping]]] = ..., result: _Optional[_Union[Result, _Mapping]] = ..., next_page_token: _Optional[str] = ..., locale: _Optional[str] = ..., seed_commitment: _Optional[bytes] = ..., seed_salt: _Optional[bytes] = ..., chat: _Optional[_Iterable[_Union[ChatMessage, _Mapping]]] = ...) -> None: ...

class AskUndoRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class AnswerUndoRequest(_message.Message):
    __slots__ = ("name", "player_token", "accept", "ask_version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    ASK_VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    accept: bool
    ask_version: int
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ..., accept: _Optional[bool] = ..., ask_version: _Optional[int] = ...) -> None: ...

class WithdrawUndoRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class UndoResponse(_message.Message):
    __slots__ = ("version", "ask", "undone")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ASK_FIELD_NUMBER: _ClassVar[int]
    UNDONE_FIELD_NUMBER: _ClassVar[int]
    version: int
    ask: UndoAsk
    undone: bool
    def __init__(self, version: _Optional[int] = ..., ask: _Optional[_Union[UndoAsk, _Mapping]] = ..., undone: _Optional[bool] = ...) -> None: ...

class UndoAsk(_message.Message):
    __slots__ = ("seat", "undoes", "ask_version", "expire_time", "accepted", "waiting")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    UNDOES_FIELD_NUMBER: _ClassVar[int]
    ASK_VERSION_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    undoes: int
    ask_version: int
    expire_time: _timestamp_pb2.Timestamp
    accepted: _containers.RepeatedScalarFieldContainer[int]
    waiting: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., undoes: _Optional[int] = ..., ask_version: _Optional[int] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., accepted: _Optional[_Iterable[int]] = ..., waiting: _Optional[_Iterable[int]] = ...) -> None: ...

class RevokeInvitationRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class OfferDrawRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class AnswerDrawRequest(_message.Message):
    __slots__ = ("name", "player_token", "accept", "offer_version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    OFFER_VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    accept: bool
    offer_version: int
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ..., accept: _Optional[bool] = ..., offer_version: _Optional[int] = ...) -> None: ...

class WithdrawDrawRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class ClaimVictoryRequest(_message.Message):
    __slots__ = ("name", "player_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    player_token: str
    def __init__(self, name: _Optional[str] = ..., player_token: _Optional[str] = ...) -> None: ...

class DrawResponse(_message.Message):
    __slots__ = ("version", "offer", "agreed")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    AGREED_FIELD_NUMBER: _ClassVar[int]
    version: int
    offer: DrawOffer
    agreed: bool
    def __init__(self, version: _Optional[int] = ..., offer: _Optional[_Union[DrawOffer, _Mapping]] = ..., agreed: _Optional[bool] = ...) -> None: ...

class DrawOffer(_message.Message):
    __slots__ = ("seat", "offer_version", "expire_time", "accepted", "waiting")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OFFER_VERSION_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    WAITING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    offer_version: int
    expire_time: _timestamp_pb2.Timestamp
    accepted: _containers.RepeatedScalarFieldContainer[int]
    waiting: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., offer_version: _Optional[int] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., accepted: _Optional[_Iterable[int]] = ..., waiting: _Optional[_Iterable[int]] = ...) -> None: ...

class GetIdentityRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Identity(_message.Message):
    __slots__ = ("subject", "display_name", "roles", "method")
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ROLES_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    subject: str
    display_name: str
    roles: _containers.RepeatedScalarFieldContainer[str]
    method: str
    def __init__(self, subject: _Optional[str] = ..., display_name: _Optional[str] = ..., roles: _Optional[_Iterable[str]] = ..., method: _Optional[str] = ...) -> None: ...

class GetPushKeyRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PushKey(_message.Message):
    __slots__ = ("application_server_key",)
    APPLICATION_SERVER_KEY_FIELD_NUMBER: _ClassVar[int]
    application_server_key: str
    def __init__(self, application_server_key: _Optional[str] = ...) -> None: ...

class SubscribePushRequest(_message.Message):
    __slots__ = ("endpoint", "p256dh", "auth", "locale")
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    P256DH_FIELD_NUMBER: _ClassVar[int]
    AUTH_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    endpoint: str
    p256dh: str
    auth: str
    locale: str
    def __init__(self, endpoint: _Optional[str] = ..., p256dh: _Optional[str] = ..., auth: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class PushSubscription(_message.Message):
    __slots__ = ("endpoint", "subject", "create_time")
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    endpoint: str
    subject: str
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, endpoint: _Optional[str] = ..., subject: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class UnsubscribePushRequest(_message.Message):
    __slots__ = ("endpoint",)
    ENDPOINT_FIELD_NUMBER: _ClassVar[int]
    endpoint: str
    def __init__(self, endpoint: _Optional[str] = ...) -> None: ...

class UnsubscribePushResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AbortMatchRequest(_message.Message):
    __slots__ = ("name", "reason")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    name: str
    reason: str
    def __init__(self, name: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class DeleteMatchRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class DeleteMatchResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AssignBotRequest(_message.Message):
    __slots__ = ("name", "seat", "bot")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat: int
    bot: str
    def __init__(self, name: _Optional[str] = ..., seat: _Optional[int] = ..., bot: _Optional[str] = ...) -> None: ...

class ResumeMatchRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class SessionRequest(_message.Message):
    __slots__ = ("tag", "watch", "move", "unwatch", "ask_undo", "answer_undo", "withdraw_undo", "resign", "offer_draw", "answer_draw", "withdraw_draw", "claim_victory", "send_chat")
    TAG_FIELD_NUMBER: _ClassVar[int]
    WATCH_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    UNWATCH_FIELD_NUMBER: _ClassVar[int]
    ASK_UNDO_FIELD_NUMBER: _ClassVar[int]
    ANSWER_UNDO_FIELD_NUMBER: _ClassVar[int]
    WITHDRAW_UNDO_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    OFFER_DRAW_FIELD_NUMBER: _ClassVar[int]
    ANSWER_DRAW_FIELD_NUMBER: _ClassVar[int]
    WITHDRAW_DRAW_FIELD_NUMBER: _ClassVar[int]
    CLAIM_VICTORY_FIELD_NUMBER: _ClassVar[int]
    SEND_CHAT_FIELD_NUMBER: _ClassVar[int]
    tag: int
    watch: WatchMatchRequest
    move: SubmitMoveRequest
    unwatch: str
    ask_undo: AskUndoRequest
    answer_undo: AnswerUndoRequest
    withdraw_undo: WithdrawUndoRequest
    resign: ResignRequest
    offer_draw: OfferDrawRequest
    answer_draw: AnswerDrawRequest
    withdraw_draw: WithdrawDrawRequest
    claim_victory: ClaimVictoryRequest
    send_chat: SendChatRequest
    def __init__(self, tag: _Optional[int] = ..., watch: _Optional[_Union[WatchMatchRequest, _Mapping]] = ..., move: _Optional[_Union[SubmitMoveRequest, _Mapping]] = ..., unwatch: _Optional[str] = ..., ask_undo: _Optional[_Union[AskUndoRequest, _Mapping]] = ..., answer_undo: _Optional[_Union[AnswerUndoRequest, _Mapping]] = ..., withdraw_undo: _Optional[_Union[WithdrawUndoRequest, _Mapping]] = ..., resign: _Optional[_Union[ResignRequest, _Mapping]] = ..., offer_draw: _Optional[_Union[OfferDrawRequest, _Mapping]] = ..., answer_draw: _Optional[_Union[AnswerDrawRequest, _Mapping]] = ..., withdraw_draw: _Optional[_Union[WithdrawDrawRequest, _Mapping]] = ..., claim_victory: _Optional[_Union[ClaimVictoryRequest, _Mapping]] = ..., send_chat: _Optional[_Union[SendChatRequest, _Mapping]] = ...) -> None: ...

class SessionError(_message.Message):
    __slots__ = ("code", "message", "details")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    details: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ..., details: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ...) -> None: ...

class SessionEvent(_message.Message):
    __slots__ = ("tag", "match", "match_event", "moved", "watching", "error", "watch_ended", "undo", "ended", "draw", "chat_sent")
    TAG_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    MATCH_EVENT_FIELD_NUMBER: _ClassVar[int]
    MOVED_FIELD_NUMBER: _ClassVar[int]
    WATCHING_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    WATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    UNDO_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    DRAW_FIELD_NUMBER: _ClassVar[int]
    CHAT_SENT_FIELD_NUMBER: _ClassVar[int]
    tag: int
    match: str
    match_event: MatchEvent
    moved: SubmitMoveResponse
    watching: Match
    error: SessionError
    watch_ended: WatchEnded
    undo: UndoResponse
    ended: Match
    draw: DrawResponse
    chat_sent: ChatMessage
    def __init__(self, tag: _Optional[int] = ..., match: _Optional[str] = ..., match_event: _Optional[_Union[MatchEvent, _Mapping]] = ..., moved: _Optional[_Union[SubmitMoveResponse, _Mapping]] = ..., watching: _Optional[_Union[Match, _Mapping]] = ..., error: _Optional[_Union[SessionError, _Mapping]] = ..., watch_ended: _Optional[_Union[WatchEnded, _Mapping]] = ..., undo: _Optional[_Union[UndoResponse, _Mapping]] = ..., ended: _Optional[_Union[Match, _Mapping]] = ..., draw: _Optional[_Union[DrawResponse, _Mapping]] = ..., chat_sent: _Optional[_Union[ChatMessage, _Mapping]] = ...) -> None: ...

class WatchEnded(_message.Message):
    __slots__ = ("version",)
    VERSION_FIELD_NUMBER: _ClassVar[int]
    version: int
    def __init__(self, version: _Optional[int] = ...) -> None: ...

class RematchRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class PlayerRating(_message.Message):
    __slots__ = ("player", "player_name", "game", "rating", "mu", "sigma", "games", "wins", "losses", "draws")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    player: str
    player_name: str
    game: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    def __init__(self, player: _Optional[str] = ..., player_name: _Optional[str] = ..., game: _Optional[str] = ..., rating: _Optional[float] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., losses: _Optional[int] = ..., draws: _Optional[int] = ...) -> None: ...

class ListLeaderboardRequest(_message.Message):
    __slots__ = ("game", "page_size", "page_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: str
    page_size: int
    page_token: str
    def __init__(self, game: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListLeaderboardResponse(_message.Message):
    __slots__ = ("ratings", "next_page_token")
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[PlayerRating]
    next_page_token: str
    def __init__(self, ratings: _Optional[_Iterable[_Union[PlayerRating, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetPlayerProfileRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class PlayerProfile(_message.Message):
    __slots__ = ("name", "games", "wins", "losses", "draws", "ratings")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    name: str
    games: int
    wins: int
    losses: int
    draws: int
    ratings: _containers.RepeatedCompositeFieldContainer[PlayerRating]
    def __init__(self, name: _Optional[str] = ..., games: _Optional[int] = ..., wins: _Optional[int] = ..., losses: _Optional[int] = ..., draws: _Optional[int] = ..., ratings: _Optional[_Iterable[_Union[PlayerRating, _Mapping]]] = ...) -> None: ...

class CreateTicketRequest(_message.Message):
    __slots__ = ("game", "seats", "variant", "options", "min_rating", "max_rating", "ttl", "bot_wait", "bot", "rating_widen_per_second", "rating_max_widening", "party_size", "party")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    MAX_RATING_FIELD_NUMBER: _ClassVar[int]
    TTL_FIELD_NUMBER: _ClassVar[int]
    BOT_WAIT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    RATING_WIDEN_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    RATING_MAX_WIDENING_FIELD_NUMBER: _ClassVar[int]
    PARTY_SIZE_FIELD_NUMBER: _ClassVar[int]
    PARTY_FIELD_NUMBER: _ClassVar[int]
    game: str
    seats: int
    variant: str
    options: _struct_pb2.Struct
    min_rating: float
    max_rating: float
    ttl: _duration_pb2.Duration
    bot_wait: _duration_pb2.Duration
    bot: str
    rating_widen_per_second: float
    rating_max_widening: float
    party_size: int
    party: str
    def __init__(self, game: _Optional[str] = ..., seats: _Optional[int] = ..., variant: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., min_rating: _Optional[float] = ..., max_rating: _Optional[float] = ..., ttl: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bot_wait: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bot: _Optional[str] = ..., rating_widen_per_second: _Optional[float] = ..., rating_max_widening: _Optional[float] = ..., party_size: _Optional[int] = ..., party: _Optional[str] = ...) -> None: ...

class Ticket(_message.Message):
    __slots__ = ("name", "game", "seats", "options", "state", "rating", "min_rating", "max_rating", "bot_wait", "bot", "create_time", "expire_time", "match", "seat", "update_time", "rating_widen_per_second", "rating_max_widening", "current_min_rating", "current_max_rating", "party", "party_size", "party_queued")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    MAX_RATING_FIELD_NUMBER: _ClassVar[int]
    BOT_WAIT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    RATING_WIDEN_PER_SECOND_FIELD_NUMBER: _ClassVar[int]
    RATING_MAX_WIDENING_FIELD_NUMBER: _ClassVar[int]
    CURRENT_MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    CURRENT_MAX_RATING_FIELD_NUMBER: _ClassVar[int]
    PARTY_FIELD_NUMBER: _ClassVar[int]
    PARTY_SIZE_FIELD_NUMBER: _ClassVar[int]
    PARTY_QUEUED_FIELD_NUMBER: _ClassVar[int]
    name: str
    game: str
    seats: int
    options: _struct_pb2.Struct
    state: TicketState
    rating: float
    min_rating: float
    max_rating: float
    bot_wait: _duration_pb2.Duration
    bot: str
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    match: str
    seat: int
    update_time: _timestamp_pb2.Timestamp
    rating_widen_per_second: float
    rating_max_widening: float
    current_min_rating: float
    current_max_rating: float
    party: str
    party_size: int
    party_queued: int
    def __init__(self, name: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[int] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., state: _Optional[_Union[TicketState, str]] = ..., rating: _Optional[float] = ..., min_rating: _Optional[float] = ..., max_rating: _Optional[float] = ..., bot_wait: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bot: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., match: _Optional[str] = ..., seat: _Optional[int] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rating_widen_per_second: _Optional[float] = ..., rating_max_widening: _Optional[float] = ..., current_min_rating: _Optional[float] = ..., current_max_rating: _Optional[float] = ..., party: _Optional[str] = ..., party_size: _Optional[int] = ..., party_queued: _Optional[int] = ...) -> None: ...

class GetTicketRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class WatchTicketRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class CancelTicketRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListTicketsRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "states")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATES_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    states: _containers.RepeatedScalarFieldContainer[TicketState]
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., states: _Optional[_Iterable[_Union[TicketState, str]]] = ...) -> None: ...

class ListTicketsResponse(_message.Message):
    __slots__ = ("tickets", "next_page_token")
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[Ticket]
    next_page_token: str
    def __init__(self, tickets: _Optional[_Iterable[_Union[Ticket, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class DeliveryAttempt(_message.Message):
    __slots__ = ("attempt", "time", "http_status", "error")
    ATTEMPT_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    HTTP_STATUS_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    attempt: int
    time: _timestamp_pb2.Timestamp
    http_status: int
    error: str
    def __init__(self, attempt: _Optional[int] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., http_status: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class Delivery(_message.Message):
    __slots__ = ("key", "match", "state", "create_time", "next_attempt_time", "attempts", "body")
    KEY_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_TIME_FIELD_NUMBER: _ClassVar[int]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    key: str
    match: str
    state: DeliveryState
    create_time: _timestamp_pb2.Timestamp
    next_attempt_time: _timestamp_pb2.Timestamp
    attempts: _containers.RepeatedCompositeFieldContainer[DeliveryAttempt]
    body: _struct_pb2.Struct
    def __init__(self, key: _Optional[str] = ..., match: _Optional[str] = ..., state: _Optional[_Union[DeliveryState, str]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., next_attempt_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., attempts: _Optional[_Iterable[_Union[DeliveryAttempt, _Mapping]]] = ..., body: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ListDeliveriesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "state", "match")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    state: DeliveryState
    match: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., state: _Optional[_Union[DeliveryState, str]] = ..., match: _Optional[str] = ...) -> None: ...

class ListDeliveriesResponse(_message.Message):
    __slots__ = ("deliveries", "next_page_token")
    DELIVERIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    deliveries: _containers.RepeatedCompositeFieldContainer[Delivery]
    next_page_token: str
    def __init__(self, deliveries: _Optional[_Iterable[_Union[Delivery, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RetryDeliveryRequest(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: str
    def __init__(self, key: _Optional[str] = ...) -> None: ...

class AgentRequest(_message.Message):
    __slots__ = ("register", "move")
    REGISTER_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    register: AgentRegistration
    move: AgentMove
    def __init__(self, register: _Optional[_Union[AgentRegistration, _Mapping]] = ..., move: _Optional[_Union[AgentMove, _Mapping]] = ...) -> None: ...

class AgentRegistration(_message.Message):
    __slots__ = ("name", "games")
    NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    name: str
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class AgentMove(_message.Message):
    __slots__ = ("turn_id", "move_id")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    MOVE_ID_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    move_id: str
    def __init__(self, turn_id: _Optional[str] = ..., move_id: _Optional[str] = ...) -> None: ...

class AgentEvent(_message.Message):
    __slots__ = ("registered", "turn", "verdict", "error")
    REGISTERED_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    registered: AgentRegistered
    turn: AgentTurn
    verdict: AgentVerdict
    error: SessionError
    def __init__(self, registered: _Optional[_Union[AgentRegistered, _Mapping]] = ..., turn: _Optional[_Union[AgentTurn, _Mapping]] = ..., verdict: _Optional[_Union[AgentVerdict, _Mapping]] = ..., error: _Optional[_Union[SessionError, _Mapping]] = ...) -> None: ...

class AgentRegistered(_message.Message):
    __slots__ = ("bot", "games")
    BOT_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    bot: str
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bot: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class AgentTurn(_message.Message):
    __slots__ = ("turn_id", "match", "game", "seat", "version", "view", "deadline")
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    match: str
    game: str
    seat: int
    version: int
    view: View
    deadline: _timestamp_pb2.Timestamp
    def __init__(self, turn_id: _Optional[str] = ..., match: _Optional[str] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., version: _Optional[int] = ..., view: _Optional[_Union[View, _Mapping]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class AgentVerdict(_message.Message):
    __slots__ = ("turn_id", "outcome", "error", "strikes", "fallback")
    class Outcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        OUTCOME_UNSPECIFIED: _ClassVar[AgentVerdict.Outcome]
        OUTCOME_PLAYED: _ClassVar[AgentVerdict.Outcome]
        OUTCOME_TIMED_OUT: _ClassVar[AgentVerdict.Outcome]
        OUTCOME_REFUSED: _ClassVar[AgentVerdict.Outcome]
    OUTCOME_UNSPECIFIED: AgentVerdict.Outcome
    OUTCOME_PLAYED: AgentVerdict.Outcome
    OUTCOME_TIMED_OUT: AgentVerdict.Outcome
    OUTCOME_REFUSED: AgentVerdict.Outcome
    TURN_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_FIELD_NUMBER: _ClassVar[int]
    turn_id: str
    outcome: AgentVerdict.Outcome
    error: SessionError
    strikes: int
    fallback: str
    def __init__(self, turn_id: _Optional[str] = ..., outcome: _Optional[_Union[AgentVerdict.Outcome, str]] = ..., error: _Optional[_Union[SessionError, _Mapping]] = ..., strikes: _Optional[int] = ..., fallback: _Optional[str] = ...) -> None: ...

class ChatMessage(_message.Message):
    __slots__ = ("match", "sequence", "channel", "sender", "sender_name", "seat", "text", "time", "hidden")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    SENDER_FIELD_NUMBER: _ClassVar[int]
    SENDER_NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_FIELD_NUMBER: _ClassVar[int]
    match: str
    sequence: int
    channel: ChatChannel
    sender: str
    sender_name: str
    seat: int
    text: str
    time: _timestamp_pb2.Timestamp
    hidden: bool
    def __init__(self, match: _Optional[str] = ..., sequence: _Optional[int] = ..., channel: _Optional[_Union[ChatChannel, str]] = ..., sender: _Optional[str] = ..., sender_name: _Optional[str] = ..., seat: _Optional[int] = ..., text: _Optional[str] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., hidden: _Optional[bool] = ...) -> None: ...

class SendChatRequest(_message.Message):
    __slots__ = ("name", "text", "player_token", "invitation_code")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    name: str
    text: str
    player_token: str
    invitation_code: str
    def __init__(self, name: _Optional[str] = ..., text: _Optional[str] = ..., player_token: _Optional[str] = ..., invitation_code: _Optional[str] = ...) -> None: ...

class ChatReport(_message.Message):
    __slots__ = ("name", "reporter", "reported", "match", "sequence", "reason", "create_time", "message")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REPORTER_FIELD_NUMBER: _ClassVar[int]
    REPORTED_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    name: str
    reporter: str
    reported: str
    match: str
    sequence: int
    reason: str
    create_time: _timestamp_pb2.Timestamp
    message: ChatMessage
    def __init__(self, name: _Optional[str] = ..., reporter: _Optional[str] = ..., reported: _Optional[str] = ..., match: _Optional[str] = ..., sequence: _Optional[int] = ..., reason: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., message: _Optional[_Union[ChatMessage, _Mapping]] = ...) -> None: ...

class ReportChatRequest(_message.Message):
    __slots__ = ("name", "sequence", "reason", "invitation_code")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    INVITATION_CODE_FIELD_NUMBER: _ClassVar[int]
    name: str
    sequence: int
    reason: str
    invitation_code: str
    def __init__(self, name: _Optional[str] = ..., sequence: _Optional[int] = ..., reason: _Optional[str] = ..., invitation_code: _Optional[str] = ...) -> None: ...

class ReportPlayerRequest(_message.Message):
    __slots__ = ("player", "reason", "match")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    player: str
    reason: str
    match: str
    def __init__(self, player: _Optional[str] = ..., reason: _Optional[str] = ..., match: _Optional[str] = ...) -> None: ...

class MuteUserRequest(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class UnmuteUserRequest(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class BlockUserRequest(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class UnblockUserRequest(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class GetChatRelationsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChatRelations(_message.Message):
    __slots__ = ("muted", "blocked")
    MUTED_FIELD_NUMBER: _ClassVar[int]
    BLOCKED_FIELD_NUMBER: _ClassVar[int]
    muted: _containers.RepeatedScalarFieldContainer[str]
    blocked: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, muted: _Optional[_Iterable[str]] = ..., blocked: _Optional[_Iterable[str]] = ...) -> None: ...

class HideMessageRequest(_message.Message):
    __slots__ = ("name", "sequence")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    name: str
    sequence: int
    def __init__(self, name: _Optional[str] = ..., sequence: _Optional[int] = ...) -> None: ...

class BanUserRequest(_message.Message):
    __slots__ = ("player", "reason")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    player: str
    reason: str
    def __init__(self, player: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class UnbanUserRequest(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class Ban(_message.Message):
    __slots__ = ("player", "reason", "banned_by", "create_time", "active")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    BANNED_BY_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    player: str
    reason: str
    banned_by: str
    create_time: _timestamp_pb2.Timestamp
    active: bool
    def __init__(self, player: _Optional[str] = ..., reason: _Optional[str] = ..., banned_by: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., active: _Optional[bool] = ...) -> None: ...

class ExportUserDataRequest(_message.Message):
    __slots__ = ("player",)
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    player: str
    def __init__(self, player: _Optional[str] = ...) -> None: ...

class UserDataExport(_message.Message):
    __slots__ = ("player", "json")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    player: str
    json: str
    def __init__(self, player: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class DeleteUserDataRequest(_message.Message):
    __slots__ = ("player", "confirm")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_FIELD_NUMBER: _ClassVar[int]
    player: str
    confirm: bool
    def __init__(self, player: _Optional[str] = ..., confirm: _Optional[bool] = ...) -> None: ...

class DeleteUserDataResponse(_message.Message):
    __slots__ = ("player", "pseudonym", "rows", "matches")
    class RowsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PSEUDONYM_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    player: str
    pseudonym: str
    rows: _containers.ScalarMap[str, int]
    matches: int
    def __init__(self, player: _Optional[str] = ..., pseudonym: _Optional[str] = ..., rows: _Optional[_Mapping[str, int]] = ..., matches: _Optional[int] = ...) -> None: ...

class ListReportsRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "reported")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REPORTED_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    reported: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., reported: _Optional[str] = ...) -> None: ...

class ListReportsResponse(_message.Message):
    __slots__ = ("reports", "next_page_token")
    REPORTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    reports: _containers.RepeatedCompositeFieldContainer[ChatReport]
    next_page_token: str
    def __init__(self, reports: _Optional[_Iterable[_Union[ChatReport, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListPluginsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Plugin(_message.Message):
    __slots__ = ("name", "distribution", "version", "games", "errors")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISTRIBUTION_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    name: str
    distribution: str
    version: str
    games: _containers.RepeatedScalarFieldContainer[str]
    errors: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., distribution: _Optional[str] = ..., version: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., errors: _Optional[_Iterable[str]] = ...) -> None: ...

class ListPluginsResponse(_message.Message):
    __slots__ = ("plugins",)
    PLUGINS_FIELD_NUMBER: _ClassVar[int]
    plugins: _containers.RepeatedCompositeFieldContainer[Plugin]
    def __init__(self, plugins: _Optional[_Iterable[_Union[Plugin, _Mapping]]] = ...) -> None: ...

class GetMatchStrikesRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class MatchStrikes(_message.Message):
    __slots__ = ("name", "strikes", "max_strikes")
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    MAX_STRIKES_FIELD_NUMBER: _ClassVar[int]
    name: str
    strikes: int
    max_strikes: int
    def __init__(self, name: _Optional[str] = ..., strikes: _Optional[int] = ..., max_strikes: _Optional[int] = ...) -> None: ...

class ListPoolsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class MatchmakingPool(_message.Message):
    __slots__ = ("pool", "game", "seats", "queued_tickets", "oldest_queue_time")
    POOL_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    QUEUED_TICKETS_FIELD_NUMBER: _ClassVar[int]
    OLDEST_QUEUE_TIME_FIELD_NUMBER: _ClassVar[int]
    pool: str
    game: str
    seats: int
    queued_tickets: int
    oldest_queue_time: _timestamp_pb2.Timestamp
    def __init__(self, pool: _Optional[str] = ..., game: _Optional[str] = ..., seats: _Optional[int] = ..., queued_tickets: _Optional[int] = ..., oldest_queue_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListPoolsResponse(_message.Message):
    __slots__ = ("pools",)
    POOLS_FIELD_NUMBER: _ClassVar[int]
    pools: _containers.RepeatedCompositeFieldContainer[MatchmakingPool]
    def __init__(self, pools: _Optional[_Iterable[_Union[MatchmakingPool, _Mapping]]] = ...) -> None: ...
