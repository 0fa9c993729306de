// The baseline: a plain Nest controller route, `POST /items`, with the API-key
// guard as APP_GUARD and a global ValidationPipe with the options this
// library's pipeline uses for an operation's input.
const {
  Body,
  Controller,
  HttpCode,
  Module,
  Post,
  ValidationPipe,
} = require('@nestjs/common');
const { APP_GUARD } = require('@nestjs/core');
const { listItems } = require('./common.cjs');
const { ApiKeyGuard, ListItemsDto, bootNest } = require('./nest-common.cjs');

class ItemsController {
  list(input) {
    return listItems(input.limit);
  }
}
Body()(ItemsController.prototype, 'list', 0);
Reflect.decorate(
  [
    Post(),
    HttpCode(200),
    Reflect.metadata('design:paramtypes', [ListItemsDto]),
  ],
  ItemsController.prototype,
  'list',
  Object.getOwnPropertyDescriptor(ItemsController.prototype, 'list'),
);
Reflect.decorate([Controller('items')], ItemsController);

class RouteModule {}
Reflect.decorate(
  [
    Module({
      controllers: [ItemsController],
      providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
    }),
  ],
  RouteModule,
);

void bootNest(RouteModule, {
  prepare: (app) =>
    app.useGlobalPipes(
      new ValidationPipe({
        transform: true,
        whitelist: true,
        forbidNonWhitelisted: true,
        forbidUnknownValues: true,
      }),
    ),
});
